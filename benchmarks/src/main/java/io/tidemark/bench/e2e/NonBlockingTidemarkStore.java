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
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The single-key transactions of {@link TidemarkStore} through the non-blocking API ({@link AsyncTransactionManager}):
 * begin, get or put, commit chained on futures; the client thread waits only for the end of the chain, so each
 * thread has one transaction in flight, as with the blocking API. The table has the snapshot coprocessor, which the
 * non-blocking API reads through (the blocking scenarios' tables resolve reads in the client).
 */
final class NonBlockingTidemarkStore implements KeyValueStore {

    private final Connection connection;
    private final TableName tableName;
    private final TransactionManager tm;
    private final AsyncConnection async;
    private final AsyncTransactionalTable table;
    private final AsyncTransactionManager atm;

    NonBlockingTidemarkStore(Connection connection, TableName tableName, TidemarkConfig clientConfig,
            PostCommitMode postCommit, byte[][] splitKeys) throws IOException {
        this.connection = connection;
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
    }

    @Override
    public Session session() {
        return new Session() {
            @Override
            public boolean run(List<Operation> operations) throws IOException {
                return committed(transaction(operations));
            }

            @Override
            public void close() {
            }
        };
    }

    /** Begin, each operation after the one before, commit: one chain of futures that no thread waits in. */
    private CompletableFuture<Void> transaction(List<Operation> operations) {
        return atm.begin().thenCompose(tx -> {
            CompletableFuture<Void> done = CompletableFuture.completedFuture(null);
            for (Operation op : operations) {
                Put put = op.isRead() ? null : new Put(KeyValueStore.row(op.key())).addColumn(FAMILY, QUALIFIER,
                        op.value().clone());
                done = done.thenCompose(previous -> put == null
                        ? table.get(tx, new Get(KeyValueStore.row(op.key())).addColumn(FAMILY, QUALIFIER))
                                .thenApply(read -> null)
                        : table.put(tx, put));
            }
            return done.thenCompose(last -> atm.commit(tx));
        });
    }

    /** Waits for the transaction: false when it aborted. */
    private static boolean committed(CompletableFuture<Void> transaction) throws IOException {
        try {
            transaction.get();
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for a transaction");
        } catch (ExecutionException e) {
            if (e.getCause() instanceof TransactionAbortedException) {
                return false;
            }
            throw new IOException(e.getCause());
        }
    }

    @Override
    public void close() throws IOException {
        tm.close();
        async.close();
    }
}
