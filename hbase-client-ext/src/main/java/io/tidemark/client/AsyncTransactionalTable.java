package io.tidemark.client;

import io.tidemark.encoding.SnapshotAttribute;
import io.tidemark.visibility.ReaderContext;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Transactional access to one HBase table without blocking: every operation returns at once with a
 * {@link CompletableFuture} and no thread waits for its reply. Obtained from {@link AsyncTransactionManager#table}.
 * The rules are {@link TTable}'s, from the same classes: reads see the transaction's snapshot plus its own writes,
 * resolved by the region servers' snapshot coprocessor (the same request encoding, {@link SnapshotQueries}); writes
 * become tentative cells ({@link TentativeMutations}) recorded in the write set and kept in the transaction's write
 * buffer until commit, a read that could see them, or the buffer's limit; a row or family delete reads the columns it
 * covers from the snapshot first. Failures arrive through the futures, with the blocking API's exceptions: a read
 * refused because the snapshot is too old rolls the transaction back and fails with
 * {@link TransactionAbortedException}; a write HBase refused fails its future and makes the commit abort.
 *
 * <p>Ordering, as for any operations of one transaction in flight together ({@link InFlightOperations}): an
 * operation on a row starts only after the writes issued earlier to that row have reached HBase, so a read sees them
 * and two writes of one cell land in issue order. Operations on different rows do not wait for each other.
 *
 * <p>Thread-safe: one table may serve many transactions and threads. Nothing to close.
 */
public final class AsyncTransactionalTable {

    private final AsyncTransactionManager manager;
    private final AsyncTable<?> table;
    private final TransactionalTableCheck.CheckedTable checked;

    AsyncTransactionalTable(AsyncTransactionManager manager, AsyncTable<?> table,
            TransactionalTableCheck.CheckedTable checked) {
        this.manager = manager;
        this.table = table;
        this.checked = checked;
    }

    public TableName getName() {
        return table.getName();
    }

    // --- reads ---

    public CompletableFuture<Result> get(Transaction tx, Get get) {
        return getAll(tx, List.of(get)).thenApply(results -> results.get(0));
    }

    /** All the Gets as one multi-get, which HBase splits by region server. */
    public CompletableFuture<List<Result>> getAll(Transaction tx, List<Get> gets) {
        ReaderContext reader;
        InFlightOperations.Operation op;
        try {
            tx.checkRunning("read");
            // Fixed now, as for a blocking read: its own-writes bound is the one of the moment it is issued.
            reader = tx.readerContext();
            // A read takes the kept writes of its rows when it runs and sends them: with a write buffer it is a write
            // of its rows, for the operations issued after it.
            op = tx.inFlight().start(RowKey.of(getName(), gets), tx.writeBuffer().isEnabled(), "read");
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<List<Result>> read = op.earlierWrites().thenCompose(earlier -> readNow(tx, gets, reader));
        return finishing(op, read);
    }

    /**
     * Every row the Scan finds in the transaction's snapshot (plus its own writes), resolved by the region servers as
     * {@link TTable#getScanner} resolves them, in one list: HBase's {@link AsyncTable#scanAll}, so bound the scan
     * ({@code withStopRow}, {@code setLimit}) to what fits in memory. The kept writes of the scan's range are sent
     * first. A scan's rows are not known in advance, so it runs after every operation of the transaction issued
     * before it, and every operation issued after it waits for it.
     */
    public CompletableFuture<List<Result>> scanAll(Transaction tx, Scan scan) {
        Scan marked;
        InFlightOperations.Operation op;
        try {
            tx.checkRunning("scan");
            marked = SnapshotQueries.serverSideScan(scan, ServerSideSnapshotReads.snapshotOf(tx, tx.readerContext()));
            op = tx.inFlight().startBarrier("scan");
        } catch (IOException | RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<List<Result>> read = op.earlierWrites().thenCompose(earlier -> {
            List<Put> kept = keptWritesSeenBy(tx, scan);
            CompletableFuture<Void> sent = kept.isEmpty() ? CompletableFuture.completedFuture(null)
                    : manager.sendWrites(tx, getName(), kept);
            return sent.thenCompose(done -> table.scanAll(marked));
        }).handle((results, failed) -> {
            if (failed != null) {
                throw reported(tx, failed);
            }
            return results;
        });
        return finishing(op, read);
    }

    /** Whether the Get finds anything in the transaction's snapshot, as {@link TTable#exists} answers. */
    public CompletableFuture<Boolean> exists(Transaction tx, Get get) {
        return get(tx, new Get(get).setCheckExistenceOnly(true)).thenApply(Result::getExists);
    }

    // --- writes ---

    public CompletableFuture<Void> put(Transaction tx, Put put) {
        return putAll(tx, List.of(put));
    }

    /**
     * Writes the Puts as tentative cells. The future completes when they are kept (at once), or sent when the write
     * buffer passed its limit or keeps nothing.
     */
    public CompletableFuture<Void> putAll(Transaction tx, List<Put> puts) {
        try {
            return keep(tx, mutations(tx).puts(puts), Set.of());
        } catch (IOException | RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Deletes as {@link TTable#delete(Transaction, Delete)} does. */
    public CompletableFuture<Void> delete(Transaction tx, Delete delete) {
        return deleteAll(tx, List.of(delete));
    }

    public CompletableFuture<Void> deleteAll(Transaction tx, List<Delete> deletes) {
        TentativeMutations.Deletes planned;
        ReaderContext reader;
        try {
            planned = mutations(tx).deletes(deletes);
            reader = tx.readerContextForWrites();
        } catch (IOException | RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        List<Get> reads = planned.visibleReads();
        if (reads.isEmpty()) {
            return keep(tx, planned.tombstones(List.of()), Set.of());
        }
        // Row and family deletes read what they cover: the delete is a write of its rows until its tombstones are
        // kept, so a read issued after it waits for them.
        InFlightOperations.Operation op;
        Set<RowKey> rows = RowKey.of(getName(), deletes);
        try {
            op = tx.inFlight().start(rows, true, "delete");
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<Void> tombstonesKept = op.earlierWrites()
                .thenCompose(earlier -> readNow(tx, reads, reader))
                .thenCompose(visible -> keep(tx, planned.tombstones(visible), rows));
        return finishing(op, tombstonesKept);
    }

    // --- internals ---

    /** The transaction's writer of tentative cells to this table; refuses a transaction begun before conversion. */
    private TentativeMutations mutations(Transaction tx) throws IOException {
        // A transaction begun lazily begins at its first asynchronous write: its cells need their version now.
        tx.beginIfNotBegun();
        TentativeMutations mutations = new TentativeMutations(tx, getName(), true);
        if (checked.conversion.startedBefore(tx.startTimestamp())) {
            throw new TableConvertedAfterStartException(getName(), tx.startTimestamp(),
                    checked.conversion.convertedAt());
        }
        return mutations;
    }

    /** Takes the transaction's kept writes to this table that the Gets could see, to be sent before them. */
    private List<Put> keptWritesSeenBy(Transaction tx, List<Get> gets) {
        WriteBuffer buffer = tx.writeBuffer();
        if (!buffer.isEnabled() || buffer.isEmpty()) {
            return List.of();
        }
        List<Put> kept = new ArrayList<>();
        for (Get g : gets) {
            kept.addAll(buffer.take(getName(), g.getRow(), g.getRow(), tx.startTimestamp()));
        }
        return kept;
    }

    /** Takes the transaction's kept writes to this table in the Scan's range (both ends included), to be sent first. */
    private List<Put> keptWritesSeenBy(Transaction tx, Scan scan) {
        WriteBuffer buffer = tx.writeBuffer();
        if (!buffer.isEnabled() || buffer.isEmpty()) {
            return List.of();
        }
        return buffer.takeScanned(getName(), scan, tx.startTimestamp());
    }

    /**
     * Sends the kept writes the Gets could see, then reads the Gets marked for the snapshot coprocessor. Runs as an
     * operation of the transaction that is a write of the Gets' rows.
     */
    private CompletableFuture<List<Result>> readNow(Transaction tx, List<Get> gets, ReaderContext reader) {
        List<Put> kept = keptWritesSeenBy(tx, gets);
        List<Get> marked = new ArrayList<>(gets.size());
        try {
            SnapshotAttribute snapshot = ServerSideSnapshotReads.snapshotOf(tx, reader);
            for (Get g : gets) {
                marked.add(SnapshotQueries.serverSideGet(g, snapshot));
            }
        } catch (IOException | RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<Void> sent = kept.isEmpty() ? CompletableFuture.completedFuture(null)
                : manager.sendWrites(tx, getName(), kept);
        return sent.thenCompose(done -> table.getAll(marked)).handle((results, failed) -> {
            if (failed != null) {
                throw reported(tx, failed);
            }
            return results;
        });
    }

    /**
     * Keeps tentative cells in the transaction's write buffer, sending all it keeps when it passed its limit (or
     * these at once when it keeps nothing); completes when they are kept or sent. {@code ownRows} are the rows of the
     * running operation that calls this, if any: its cells of them go at once, within it, since operations issued
     * after it wait for it alone; the other rows go as operations of their own, ordered with the other writes to them.
     */
    private CompletableFuture<Void> keep(Transaction tx, List<Put> tentative, Set<RowKey> ownRows) {
        WriteBuffer buffer = tx.writeBuffer();
        Map<TableName, List<Put>> toSend;
        if (!buffer.isEnabled()) {
            toSend = Map.of(getName(), tentative);
        } else {
            buffer.add(getName(), tentative);
            if (!buffer.isFull()) {
                return CompletableFuture.completedFuture(null);
            }
            toSend = buffer.takeAll(tx.startTimestamp());
        }
        List<CompletableFuture<Void>> sent = new ArrayList<>();
        for (Map.Entry<TableName, List<Put>> t : toSend.entrySet()) {
            List<Put> within = new ArrayList<>();
            List<Put> apart = new ArrayList<>();
            for (Put p : t.getValue()) {
                (ownRows.contains(new RowKey(t.getKey(), p.getRow())) ? within : apart).add(p);
            }
            if (!within.isEmpty()) {
                sent.add(manager.sendWrites(tx, t.getKey(), within).handle((done, failed) -> {
                    if (failed != null) {
                        throw reported(tx, failed);
                    }
                    return null;
                }));
            }
            if (!apart.isEmpty()) {
                sent.add(send(tx, t.getKey(), apart));
            }
        }
        return CompletableFuture.allOf(sent.toArray(new CompletableFuture<?>[0]));
    }

    /** Sends tentative cells as an operation of the transaction: after earlier writes of their rows, before later. */
    private CompletableFuture<Void> send(Transaction tx, TableName target, List<Put> rows) {
        InFlightOperations.Operation op;
        try {
            op = tx.inFlight().start(RowKey.of(target, rows), true, "write");
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<Void> sent = op.earlierWrites().thenCompose(earlier -> manager.sendWrites(tx, target, rows))
                .handle((done, failed) -> {
                    if (failed != null) {
                        throw reported(tx, failed);
                    }
                    return null;
                });
        return finishing(op, sent);
    }

    /**
     * What the caller is told of a failed read or write, as {@link TTable} throws it: a region server's refusal rolls
     * the transaction back and becomes a {@link TransactionAbortedException} ({@link TransactionAborts}).
     */
    private CompletionException reported(Transaction tx, Throwable failed) {
        Throwable cause = CommitProtocol.unwrap(failed);
        if (cause instanceof IOException) {
            cause = TransactionAborts.abortIfRefused(tx, (IOException) cause, manager::rollback);
        }
        return new CompletionException(cause);
    }

    /**
     * Ends {@code op} when {@code work} completes, before the caller hears of it (so a commit issued from a callback
     * does not wait for it). A failed write is remembered by the transaction where it was sent
     * ({@link AsyncTransactionManager#sendWrites}), so the operation itself ends as finished: a failed read that also
     * carried kept writes is no failed write.
     */
    private static <T> CompletableFuture<T> finishing(InFlightOperations.Operation op, CompletableFuture<T> work) {
        CompletableFuture<T> result = new CompletableFuture<>();
        work.whenComplete((value, failed) -> {
            op.finish(null);
            if (failed == null) {
                result.complete(value);
            } else {
                result.completeExceptionally(CommitProtocol.unwrap(failed));
            }
        });
        return result;
    }
}
