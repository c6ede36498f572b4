package io.tidemark.client;

import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Row;
import org.jspecify.annotations.Nullable;

import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;

/**
 * Transactional access to one HBase table whose operations return at once, as {@link CompletableFuture}s, so that
 * one transaction's reads and writes to different rows (and regions) are in flight together instead of one after
 * another. Obtained from {@link TransactionManager#asyncTable}; each operation runs the {@link TTable} operation of
 * the same name on the manager's executor, over HBase's {@code AsyncConnection}. Snapshot, read-your-own-writes,
 * write set and conflict detection are exactly those of {@link TTable}.
 *
 * <p>Ordering: an operation on a row starts only after the writes issued earlier to that row by the same transaction
 * have finished, so a read sees them and two writes of one cell land in issue order. Operations on different rows do
 * not wait for each other.
 *
 * <p>Commit waits for every operation still in flight. If one of the transaction's writes failed, commit aborts it
 * with {@link TransactionAbortedException.Reason#WRITE_FAILED} (or the region server's refusal, e.g.
 * {@code NEWER_FAST_PATH_WRITE}). Once commit or rollback has begun, new operations fail with
 * {@link TransactionStateException}. Every failure, including a refused write in a read-only transaction, arrives
 * through the returned future. Do not commit from a callback running on the executor itself when the executor has a
 * single thread: the commit would wait for operations queued behind it.
 *
 * <p>Thread-safe: one AsyncTTable may serve many transactions and threads.
 */
public final class AsyncTTable implements Closeable {

    private final TTable table;
    private final ExecutorService executor;

    AsyncTTable(TTable table, ExecutorService executor) {
        this.table = table;
        this.executor = executor;
    }

    public TableName getName() {
        return table.getName();
    }

    // --- reads ---

    public CompletableFuture<Result> get(Transaction tx, Get get) {
        return read(tx, List.of(get), "read", () -> table.get(tx, get));
    }

    /** One operation per Get, all in flight together. */
    public List<CompletableFuture<Result>> get(Transaction tx, List<Get> gets) {
        List<CompletableFuture<Result>> results = new ArrayList<>(gets.size());
        for (Get g : gets) {
            results.add(get(tx, g));
        }
        return results;
    }

    /** All the Gets as one multi-get, which HBase itself splits by region server. */
    public CompletableFuture<List<Result>> getAll(Transaction tx, List<Get> gets) {
        return read(tx, gets, "read", () -> Arrays.asList(table.get(tx, gets)));
    }

    public CompletableFuture<Boolean> exists(Transaction tx, Get get) {
        return read(tx, List.of(get), "read", () -> table.exists(tx, get));
    }

    public List<CompletableFuture<Boolean>> exists(Transaction tx, List<Get> gets) {
        List<CompletableFuture<Boolean>> results = new ArrayList<>(gets.size());
        for (Get g : gets) {
            results.add(exists(tx, g));
        }
        return results;
    }

    // --- writes ---

    public CompletableFuture<Void> put(Transaction tx, Put put) {
        return putAll(tx, List.of(put));
    }

    /** One operation per Put, all in flight together. */
    public List<CompletableFuture<Void>> put(Transaction tx, List<Put> puts) {
        List<CompletableFuture<Void>> results = new ArrayList<>(puts.size());
        for (Put p : puts) {
            results.add(put(tx, p));
        }
        return results;
    }

    /** All the Puts as one multi-put. */
    public CompletableFuture<Void> putAll(Transaction tx, List<Put> puts) {
        return write(tx, puts, "write", writer -> writer.put(puts));
    }

    /** Deletes as {@link TTable#delete(Transaction, Delete)} does. */
    public CompletableFuture<Void> delete(Transaction tx, Delete delete) {
        return deleteAll(tx, List.of(delete));
    }

    public List<CompletableFuture<Void>> delete(Transaction tx, List<Delete> deletes) {
        List<CompletableFuture<Void>> results = new ArrayList<>(deletes.size());
        for (Delete d : deletes) {
            results.add(delete(tx, d));
        }
        return results;
    }

    public CompletableFuture<Void> deleteAll(Transaction tx, List<Delete> deletes) {
        return write(tx, deletes, "delete", writer -> writer.delete(deletes));
    }

    /** Closes the HBase table; the connection and the executor stay the caller's. */
    @Override
    public void close() throws IOException {
        table.close();
    }

    private <T> CompletableFuture<T> read(Transaction tx, List<? extends Row> rows, String action, Body<T> body) {
        CompletableFuture<T> result = new CompletableFuture<>();
        InFlightOperations.Operation op;
        try {
            tx.checkRunning(action);
            op = tx.inFlight().start(rowKeys(rows), false, action);
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
            return result;
        }
        run(op, body, result);
        return result;
    }

    private CompletableFuture<Void> write(Transaction tx, List<? extends Row> rows, String action,
                                          WriteBody body) {
        CompletableFuture<Void> result = new CompletableFuture<>();
        TentativeWriter writer;
        InFlightOperations.Operation op;
        try {
            // Made here, not on the executor, so a read-only or finished transaction is refused before anything
            // is registered.
            writer = table.writer(tx, action + " to " + getName().getNameAsString(), true);
            op = tx.inFlight().start(rowKeys(rows), true, action);
        } catch (IOException | RuntimeException e) {
            result.completeExceptionally(e);
            return result;
        }
        // A refused write is not turned into a rollback here: the commit reports it, with its reason.
        run(op, () -> {
            body.write(writer);
            return null;
        }, result);
        return result;
    }

    /** Runs {@code body} on the executor once the earlier writes to its rows finished; then completes the result. */
    private <T> void run(InFlightOperations.Operation op, Body<T> body, CompletableFuture<T> result) {
        op.earlierWrites().thenRunAsync(() -> {
            T value = null;
            Throwable failure = null;
            try {
                value = body.call();
            } catch (Throwable t) {
                failure = t;
            }
            // Unregistered before the caller hears of it, so a commit issued from a callback does not wait for it.
            op.finish(failure);
            if (failure == null) {
                result.complete(value);
            } else {
                result.completeExceptionally(failure);
            }
        }, executor).exceptionally(refused -> {
            // The executor refused the task (it was shut down): the operation never ran.
            op.finish(refused);
            result.completeExceptionally(refused);
            return null;
        });
    }

    private Set<RowKey> rowKeys(List<? extends Row> rows) {
        return RowKey.of(getName(), rows);
    }

    @FunctionalInterface
    private interface Body<T> {
        @Nullable T call() throws IOException;
    }

    @FunctionalInterface
    private interface WriteBody {
        void write(TentativeWriter writer) throws IOException;
    }
}
