package io.tidemark.committable;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.AsyncTableBuilder;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.ConnectionImplementation;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.security.User;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Writes group-commit batches to the {@link HBaseCommitTable} through HBase's asynchronous client: the batch leaves
 * from the thread that sends it and completes on HBase's client threads, with no thread of ours waiting for the round
 * trip. Same writes and outcomes as {@link HBaseCommitTable#tryCommitAll}: guarded puts (or check-and-mutates without
 * the guard), refused records read back to recognise one's own, HBase's timeouts ending at the deadline.
 *
 * <p>The non-blocking client ({@code AsyncTransactionManager}) also invalidates and releases records through it
 * ({@link #invalidate}, {@link #release}), with the blocking client's mutations.
 *
 * <p>HBase 2.6's blocking {@code Connection} cannot lend an asynchronous one, so this opens its own with the blocking
 * connection's configuration and user, at the first batch: a client whose commits never wait for one another (each
 * then writes its own record) never opens it. Closing closes it; the blocking connection stays its owner's.
 */
public final class HBaseAsyncCommitBatches implements CommitBatchSender, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(HBaseAsyncCommitBatches.class);

    private final HBaseCommitTable table;
    private final Configuration configuration;
    /** The blocking connection's user, or null for the process's current user (what HBase's client uses then). */
    private final @Nullable User user;
    @GuardedBy("this")
    private @Nullable CompletableFuture<AsyncConnection> connection;
    private volatile @Nullable CompletableFuture<Boolean> guarded;
    @GuardedBy("this")
    private boolean closed;

    /** Batches to {@code table} over a connection like {@code blocking}: same configuration, same user. */
    public HBaseAsyncCommitBatches(HBaseCommitTable table, Connection blocking) {
        this.table = table;
        this.configuration = blocking.getConfiguration();
        // HBase's own blocking connection knows the user it was opened for (an application may open one per user);
        // its public interface does not say.
        this.user = blocking instanceof ConnectionImplementation ? ((ConnectionImplementation) blocking).getUser()
                : null;
    }

    @Override
    public CompletableFuture<boolean[]> send(List<CommitRecord> records, CommitRecordDeadline deadline) {
        if (records.isEmpty()) {
            return CompletableFuture.completedFuture(new boolean[0]);
        }
        CompletableFuture<AsyncConnection> open;
        try {
            open = connection();
        } catch (IOException closedAlready) {
            return CompletableFuture.failedFuture(closedAlready);
        }
        return open.thenCompose(c -> isGuarded(c, deadline).thenCompose(guard -> {
            AsyncTable<?> handle;
            try {
                handle = writeTable(c, deadline);
            } catch (IOException late) {
                return CompletableFuture.<boolean[]>failedFuture(late);
            }
            CompletableFuture<boolean[]> decided = guard ? writeGuarded(handle, records)
                    : writeConditional(handle, records);
            return decided.thenCompose(won -> recognizeOwnRecords(c, records, won));
        })).handle((won, failure) -> {
            if (failure == null) {
                return won;
            }
            throw new CompletionException(asIoException(records, unwrap(failure)));
        });
    }

    /**
     * {@link HBaseCommitTable#invalidate} without blocking: the layout is checked first (once), the marker written
     * put-if-absent, and a refused marker answered by the decision that stands.
     */
    public CompletableFuture<CommitState> invalidate(long startTimestamp) {
        return onConnection(c -> isGuarded(c, CommitRecordDeadline.NONE).thenCompose(layoutChecked -> {
            AsyncTable<?> handle = c.getTable(table.tableName());
            return handle.checkAndMutate(table.invalidation(startTimestamp)).thenCompose(written -> written.isSuccess()
                    ? CompletableFuture.completedFuture(CommitState.invalidated())
                    : handle.get(table.recordGet(startTimestamp)).thenApply(HBaseCommitTable::decode));
        }));
    }

    /** {@link HBaseCommitTable#release} without blocking. */
    public CompletableFuture<Void> release(CommitRecord record) {
        return onConnection(c -> {
            try {
                return c.getTable(table.tableName()).delete(table.releaseOf(record));
            } catch (IOException e) {
                return CompletableFuture.failedFuture(e);
            }
        });
    }

    /**
     * {@code body} once the connection is open; failures arrive unwrapped, as {@link IOException}s where HBase's are.
     */
    private <T> CompletableFuture<T> onConnection(
            Function<AsyncConnection, CompletableFuture<T>> body) {
        CompletableFuture<AsyncConnection> open;
        try {
            open = connection();
        } catch (IOException closedAlready) {
            return CompletableFuture.failedFuture(closedAlready);
        }
        return open.thenCompose(body).handle((value, failure) -> {
            if (failure == null) {
                return value;
            }
            Throwable cause = unwrap(failure);
            throw new CompletionException(cause instanceof IOException ? cause
                    : new IOException("commit table " + table.tableName() + " failed", cause));
        });
    }

    private synchronized CompletableFuture<AsyncConnection> connection() throws IOException {
        if (closed) {
            throw new IOException("the asynchronous commit-table connection is closed");
        }
        // A connection that failed to open is not kept: the next batch tries again.
        if (connection == null || connection.isCompletedExceptionally()) {
            connection = user != null ? ConnectionFactory.createAsyncConnection(configuration, user)
                    : ConnectionFactory.createAsyncConnection(configuration);
        }
        return connection;
    }

    /**
     * Checks the table's layout row and learns whether it carries the guard, in one read, as the blocking client; the
     * read ends at the deadline of the batch that makes it, as its writes do.
     */
    private CompletableFuture<Boolean> isGuarded(AsyncConnection c, CommitRecordDeadline deadline) {
        CompletableFuture<Boolean> known = guarded;
        if (known == null) {
            AsyncTable<?> handle;
            try {
                handle = writeTable(c, deadline);
            } catch (IOException late) {
                return CompletableFuture.failedFuture(late);
            }
            known = handle.get(HBaseCommitTable.layoutGet()).thenApply(layoutRow -> {
                try {
                    return table.checkLayout(layoutRow);
                } catch (CommitTableMismatchException e) {
                    throw new CompletionException(e);
                }
            });
            guarded = known;
            // A failed read is not kept: the next batch asks again.
            known.whenComplete((isGuarded, failure) -> {
                if (failure != null) {
                    guarded = null;
                }
            });
        }
        return known;
    }

    /** As {@link HBaseCommitTable}'s blocking handle: HBase's timeouts end at the deadline, refused once it passed. */
    private AsyncTable<?> writeTable(AsyncConnection c, CommitRecordDeadline deadline) throws IOException {
        if (!deadline.isBounded()) {
            return c.getTable(table.tableName());
        }
        deadline.checkWriteMayStart();
        long timeoutMs = deadline.remainingMillisForWrite();
        AsyncTableBuilder<?> builder = c.getTableBuilder(table.tableName());
        return builder.setOperationTimeout(timeoutMs, TimeUnit.MILLISECONDS)
                .setRpcTimeout(timeoutMs, TimeUnit.MILLISECONDS)
                .setWriteRpcTimeout(timeoutMs, TimeUnit.MILLISECONDS)
                .setReadRpcTimeout(timeoutMs, TimeUnit.MILLISECONDS).build();
    }

    private CompletableFuture<boolean[]> writeGuarded(AsyncTable<?> handle, List<CommitRecord> records) {
        List<Put> puts = new ArrayList<>(records.size());
        for (CommitRecord record : records) {
            puts.add(table.guardedPut(record));
        }
        List<CompletableFuture<Void>> written = handle.put(puts);
        Object[] results = new Object[records.size()];
        CompletableFuture<?>[] each = new CompletableFuture<?>[results.length];
        for (int i = 0; i < results.length; i++) {
            int index = i;
            // A put that completes normally was applied: a non-null result, as a blocking batch reports it.
            each[i] = written.get(i).handle((ok, failure) -> {
                results[index] = failure == null ? true : unwrap(failure);
                return null;
            });
        }
        return CompletableFuture.allOf(each).thenApply(done -> {
            try {
                return HBaseCommitTable.guardedOutcomes(records, results);
            } catch (IOException e) {
                throw new CompletionException(e);
            }
        });
    }

    private CompletableFuture<boolean[]> writeConditional(AsyncTable<?> handle, List<CommitRecord> records) {
        List<CheckAndMutate> operations = new ArrayList<>(records.size());
        for (CommitRecord record : records) {
            operations.add(table.commitIfAbsent(record));
        }
        List<CompletableFuture<CheckAndMutateResult>> results = handle.checkAndMutate(operations);
        return CompletableFuture.allOf(results.toArray(new CompletableFuture<?>[0])).thenApply(done -> {
            boolean[] won = new boolean[records.size()];
            for (int i = 0; i < won.length; i++) {
                won[i] = results.get(i).join().isSuccess();
            }
            return won;
        });
    }

    private CompletableFuture<boolean[]> recognizeOwnRecords(AsyncConnection c, List<CommitRecord> records,
            boolean[] won) {
        List<Get> gets = table.refusedRecordGets(records, won);
        if (gets.isEmpty()) {
            return CompletableFuture.completedFuture(won);
        }
        return c.getTable(table.tableName()).getAll(gets).thenApply(stored -> {
            HBaseCommitTable.recognizeOwnRecords(records, won, stored.toArray(new Result[0]));
            return won;
        });
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    private static IOException asIoException(List<CommitRecord> records, Throwable failure) {
        if (failure instanceof IOException) {
            return (IOException) failure;
        }
        return new IOException("writing " + records.size() + " commit records failed", failure);
    }

    /** Closes the asynchronous connection, if one was opened; batches still in flight fail. */
    @Override
    public void close() {
        CompletableFuture<AsyncConnection> opened;
        synchronized (this) {
            closed = true;
            opened = connection;
        }
        if (opened != null) {
            opened.thenAccept(c -> {
                try {
                    c.close();
                } catch (IOException e) {
                    LOG.warn("closing the asynchronous connection to {} failed", table.tableName(), e);
                }
            });
        }
    }
}
