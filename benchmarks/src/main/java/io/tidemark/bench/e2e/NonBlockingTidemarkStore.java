package io.tidemark.bench.e2e;

import io.tidemark.bench.ScratchTables;
import io.tidemark.client.AsyncTransactionManager;
import io.tidemark.client.AsyncTransactionalTable;
import io.tidemark.client.PostCommitMode;
import io.tidemark.client.TransactionAbortedException;
import io.tidemark.client.TransactionManager;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.table.TableFeature;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * The single-key transactions of {@link TidemarkStore} through the non-blocking API ({@link AsyncTransactionManager}):
 * begin, the gets and puts, commit chained on futures. With one transaction in flight per thread the client thread
 * waits for the end of each chain, as with the blocking API; with more, it issues chains without waiting, up to that
 * many at once. The table has the snapshot coprocessor, which the
 * non-blocking API reads through (the blocking scenarios' tables resolve reads in the client).
 */
final class NonBlockingTidemarkStore implements KeyValueStore {

    private final Connection connection;
    private final TableName tableName;
    private final TransactionManager tm;
    private final AsyncConnection async;
    private final AsyncTransactionalTable table;
    private final AsyncTransactionManager atm;
    private final int inFlightPerThread;

    NonBlockingTidemarkStore(Connection connection, TableName tableName, TidemarkConfig clientConfig,
            PostCommitMode postCommit, byte[][] splitKeys, int inFlightPerThread) throws IOException {
        this.connection = connection;
        this.inFlightPerThread = inFlightPerThread;
        this.tableName = tableName;
        ScratchTables.recreate(connection, tableName, Bytes.toString(FAMILY),
                Set.of(TableFeature.SERVER_SIDE_SNAPSHOTS), clientConfig, splitKeys);
        this.tm = TransactionManager.builder(connection).config(clientConfig).postCommit(postCommit).build();
        try {
            this.async = ConnectionFactory.createAsyncConnection(connection.getConfiguration()).get();
            this.atm = AsyncTransactionManager.over(tm, async);
            this.table = atm.table(tableName).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            tm.close();
            throw new InterruptedIOException("interrupted while opening the non-blocking client");
        } catch (ExecutionException e) {
            tm.close();
            throw new IOException("could not open the non-blocking client", e.getCause());
        }
    }

    @Override
    public void preload(int rows, byte[] value) throws IOException {
        TidemarkStore.preload(tm, connection, tableName, rows, value);
        // One transaction through the non-blocking client, unmeasured: it opens the commit table's asynchronous
        // connection (the blocking preload's lone commits never need it) and looks up the regions.
        List<Operation> writeAndRead = List.of(new Operation(0, value), new Operation(rows - 1, null));
        try {
            transaction(writeAndRead).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while warming up the non-blocking client");
        } catch (ExecutionException e) {
            throw new IOException("the non-blocking warm-up transaction failed", e.getCause());
        }
    }

    @Override
    public int inFlightPerThread() {
        return inFlightPerThread;
    }

    @Override
    public Session session() {
        return new NonBlockingSession() {
            @Override
            public CompletableFuture<Boolean> runAsync(List<Operation> operations) {
                return committed(transaction(operations));
            }

            @Override
            public boolean run(List<Operation> operations) throws IOException {
                try {
                    return runAsync(operations).get();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while waiting for a transaction");
                } catch (ExecutionException e) {
                    throw new IOException(e.getCause());
                }
            }

            @Override
            public void close() {
            }
        };
    }

    /**
     * Begin, each operation after the one before, commit: one chain of futures that no thread waits in. The puts are
     * made here, before the chain starts, since the caller reuses the value arrays for its next transaction.
     */
    private CompletableFuture<Void> transaction(List<Operation> operations) {
        List<Put> puts = new ArrayList<>(operations.size());
        for (Operation op : operations) {
            puts.add(op.isRead() ? null : new Put(KeyValueStore.row(op.key())).addColumn(FAMILY, QUALIFIER,
                    op.value().clone()));
        }
        return atm.begin().thenCompose(tx -> {
            CompletableFuture<Void> done = CompletableFuture.completedFuture(null);
            for (int i = 0; i < operations.size(); i++) {
                Put put = puts.get(i);
                byte[] row = KeyValueStore.row(operations.get(i).key());
                done = done.thenCompose(previous -> put == null
                        ? table.get(tx, new Get(row).addColumn(FAMILY, QUALIFIER)).thenApply(read -> null)
                        : table.put(tx, put));
            }
            return done.thenCompose(last -> atm.commit(tx));
        });
    }

    /** True when the transaction committed, false when it aborted; other failures stay failures. */
    private static CompletableFuture<Boolean> committed(CompletableFuture<Void> transaction) {
        return transaction.handle((done, failure) -> {
            if (failure == null) {
                return true;
            }
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            if (cause instanceof TransactionAbortedException) {
                return false;
            }
            throw new CompletionException(cause);
        });
    }

    @Override
    public void close() throws IOException {
        tm.close();
        async.close();
    }
}
