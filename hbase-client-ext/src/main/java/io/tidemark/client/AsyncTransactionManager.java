package io.tidemark.client;

import io.tidemark.client.admin.TableDescriptors;
import io.tidemark.client.tso.CommitResult;
import io.tidemark.committable.CommitRecord;
import io.tidemark.committable.CommitRecordDeadline;
import io.tidemark.committable.CommitState;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * Begins, commits and rolls back transactions without blocking any thread: every call returns at once with a
 * {@link CompletableFuture}, and no thread waits for a reply meanwhile, neither the caller's nor one of Tidemark's.
 * BEGIN and COMMIT go through the manager's TSO client (Netty, pipelined), reads, writes and the post-commit through
 * HBase's {@link AsyncConnection}, and the commit record, invalidations and their releases through the commit table's
 * asynchronous client. So thousands of transactions may be in flight from a handful of threads.
 *
 * <p>Built over a {@link TransactionManager}, whose settings, TSO client, commit table, metrics and rules it shares:
 * the transactions it begins are that manager's {@link Transaction}s, the commit follows the same
 * {@link CommitProtocol} (the same steps, outcomes and exceptions) and the tables check, encode reads and build
 * tentative cells with the same classes. A transaction begun here may also be used through a {@link TTable} and
 * committed by the blocking manager, and the other way round.
 *
 * <p>Differences from the blocking API, all of scope: the commit always goes through the TSO (no single-region commit,
 * docs/architecture.md), tables must have the Tidemark snapshot coprocessor (reads are resolved by the region servers;
 * {@link #table} refuses other tables), and {@link AsyncTransactionalTable} offers get, exists, scanAll, put and
 * delete, no streaming scanner and no read-modify-writes. Read-only transactions with bounded staleness are begun by
 * the blocking manager.
 *
 * <p>Callbacks chained on the returned futures run on HBase's or the TSO client's threads: they must not block
 * either (use the {@code ...Async} variants with an executor of your own for work that does). Thread-safe.
 */
public final class AsyncTransactionManager {

    private final TransactionManager manager;
    private final AsyncConnection connection;
    private final CommitProtocol.Io io = new NonBlockingIo();

    private AsyncTransactionManager(TransactionManager manager, AsyncConnection connection) {
        this.manager = manager;
        this.connection = connection;
    }

    /**
     * A non-blocking view of {@code manager}, over {@code connection} (an asynchronous connection to the same
     * cluster). Both stay the caller's to close; closing the manager ends this one too.
     */
    public static AsyncTransactionManager over(TransactionManager manager, AsyncConnection connection) {
        if (manager == null || connection == null) {
            throw new NullPointerException("manager and connection are both required");
        }
        return new AsyncTransactionManager(manager, connection);
    }

    /** The blocking manager this one works through. */
    public TransactionManager blocking() {
        return manager;
    }

    /**
     * Begins a transaction, as {@link TransactionManager#begin()}: the future fails with the same
     * {@link TransactionException}s.
     */
    public CompletableFuture<Transaction> begin() {
        try {
            manager.checkOpenForUse();
        } catch (IllegalStateException closed) {
            return CompletableFuture.failedFuture(closed);
        }
        long sent = System.nanoTime();
        return manager.tso().begin().handle((begun, failed) -> {
            try {
                if (failed != null) {
                    Throwable cause = CommitProtocol.unwrap(failed);
                    throw manager.beginFailed(cause instanceof IOException ? (IOException) cause
                            : new IOException(cause.getMessage(), cause));
                }
                return CompletableFuture.completedFuture(manager.begun(begun, false, sent));
            } catch (TransactionException e) {
                return CompletableFuture.<Transaction>failedFuture(e);
            }
        }).thenCompose(f -> f);
    }

    /**
     * The transactional view of {@code tableName}, once the table is checked (once per manager, as the blocking API
     * does): the future fails with {@link TableNotTransactionalException} when the table cannot be used
     * transactionally, or has no snapshot coprocessor to resolve reads.
     */
    public CompletableFuture<AsyncTransactionalTable> table(TableName tableName) {
        AsyncTable<?> table = connection.getTable(tableName);
        TransactionalTableCheck check = manager.tableCheck();
        TransactionalTableCheck.CheckedTable known = check.known(tableName);
        CompletableFuture<TransactionalTableCheck.CheckedTable> checked = known != null
                ? CompletableFuture.completedFuture(known)
                : TableDescriptors.of(table).thenApply(descriptor -> {
                    try {
                        return check.check(descriptor);
                    } catch (IOException e) {
                        throw new CompletionException(e);
                    }
                });
        return checked.handle((passed, failed) -> {
            if (failed != null) {
                return CompletableFuture.<AsyncTransactionalTable>failedFuture(CommitProtocol.unwrap(failed));
            }
            if (!passed.serverSide) {
                return CompletableFuture.<AsyncTransactionalTable>failedFuture(new TableNotTransactionalException(
                        tableName, "the non-blocking API reads through the Tidemark snapshot coprocessor, which this"
                        + " table lacks; attach it with ./tidemark table enable " + tableName.getNameAsString()
                        + " (docs/coprocessors.md), or use TTable"));
            }
            return CompletableFuture.completedFuture(new AsyncTransactionalTable(this, table, passed));
        }).thenCompose(f -> f);
    }

    /**
     * Commits {@code tx}, as {@link TransactionManager#commit} does but always through the TSO: operations still in
     * flight finish first, and the future fails with the same exceptions ({@link TransactionAbortedException} with
     * its reason, {@link TransactionException} when the outcome is unknown, {@link WriteSetTooLargeException}).
     * In {@link PostCommitMode#SYNC} it completes once the post-commit is done, in {@code ASYNC} at the commit point.
     */
    public CompletableFuture<Void> commit(Transaction tx) {
        CommitProtocol protocol = manager.commitProtocol();
        try {
            tx.checkFinishableBy(manager, "commit");
            manager.checkOpenForUse();
        } catch (RuntimeException refused) {
            return CompletableFuture.failedFuture(refused);
        }
        return tx.inFlight().end("commit")
                .thenCompose(drained -> protocol.checkInFlightOutcome(tx, io))
                .thenCompose(checked -> {
                    if (protocol.committedWithoutWrites(tx)) {
                        return CompletableFuture.<Void>completedFuture(null);
                    }
                    long called = System.nanoTime();
                    return protocol.commitThroughTso(tx, io)
                            .whenComplete((done, failed) -> manager.metrics().commitFinished(called));
                });
    }

    /**
     * Rolls {@code tx} back, as {@link TransactionManager#rollback}: its writes will never be visible. The future
     * completes once operations still in flight finished and the tentative cells are removed (a failed removal is
     * logged, not reported: readers skip those cells).
     */
    public CompletableFuture<Void> rollback(Transaction tx) {
        try {
            tx.checkFinishableBy(manager, "roll back");
        } catch (RuntimeException refused) {
            return CompletableFuture.failedFuture(refused);
        }
        tx.markRolledBack();
        return tx.inFlight().end("rollback")
                .thenCompose(drained -> manager.commitProtocol().removeTentativeCells(tx, io));
    }

    /** Sends {@code rows}, kept writes of {@code tx}, to {@code table}; a failure is remembered by the transaction. */
    CompletableFuture<Void> sendWrites(Transaction tx, TableName table, List<Put> rows) {
        return connection.getTable(table).putAll(rows).whenComplete((sent, failed) -> {
            if (failed != null) {
                tx.inFlight().writeFailed(CommitProtocol.unwrap(failed));
            }
        });
    }

    private static CompletableFuture<Void> allOf(List<CompletableFuture<Void>> steps) {
        return CompletableFuture.allOf(steps.toArray(new CompletableFuture<?>[0]));
    }

    /** The commit protocol's I/O through asynchronous clients: nothing here waits. */
    private final class NonBlockingIo implements CommitProtocol.Io {

        @Override
        public CompletableFuture<Void> sendBufferedWrites(Transaction tx) {
            List<CompletableFuture<Void>> sent = new ArrayList<>();
            for (Map.Entry<TableName, List<Put>> table : tx.writeBuffer().takeAll(tx.startTimestamp()).entrySet()) {
                sent.add(sendWrites(tx, table.getKey(), table.getValue()));
            }
            return allOf(sent);
        }

        @Override
        public CompletableFuture<CommitResult> tsoCommit(Transaction tx, long[] conflictIds, long[] tableIds) {
            return manager.tso().commit(tx.startTimestamp(), tx.commitToken(), conflictIds, tableIds);
        }

        @Override
        public CompletableFuture<Boolean> writeCommitRecord(CommitRecord record, CommitRecordDeadline deadline) {
            return manager.commitRecordWriter().tryCommitAsync(record, deadline);
        }

        @Override
        public CompletableFuture<CommitState> invalidate(long startTimestamp) {
            return manager.asyncCommitTable().invalidate(startTimestamp);
        }

        @Override
        public CompletableFuture<Void> writeShadowCells(Transaction tx, long commitTimestamp) {
            List<CompletableFuture<Void>> written = new ArrayList<>();
            for (Map.Entry<TableName, List<Put>> table : TentativeCells.shadowCells(tx, commitTimestamp).entrySet()) {
                written.add(connection.getTable(table.getKey()).putAll(table.getValue()));
            }
            return allOf(written);
        }

        @Override
        public CompletableFuture<Void> releaseCommitRecord(CommitRecord record) {
            return manager.asyncCommitTable().release(record);
        }

        @Override
        public CompletableFuture<Void> removeTentativeCells(Transaction tx) {
            List<CompletableFuture<Void>> removed = new ArrayList<>();
            for (Map.Entry<TableName, List<Delete>> table : TentativeCells.removals(tx).entrySet()) {
                removed.add(connection.getTable(table.getKey()).deleteAll(table.getValue()));
            }
            return allOf(removed);
        }

        /**
         * The post-commit chain itself waits for nothing: it starts here and goes on on HBase's threads, followed by
         * the manager's post-commits so that closing the manager waits for it.
         */
        @Override
        public void startPostCommit(Supplier<CompletableFuture<Void>> postCommit) {
            manager.asyncPostCommits().follow(postCommit.get());
        }
    }
}
