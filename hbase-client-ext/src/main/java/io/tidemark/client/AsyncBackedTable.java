package io.tidemark.client;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The few {@link Table} calls the snapshot reader and the tentative writer make (get, exists, put, the descriptor),
 * each a call of HBase's {@link AsyncTable} waited for: {@link AsyncTTable} runs those waits on its executor, one per
 * operation in flight. Thread-safe, as the AsyncTable is; anything else a Table offers is refused.
 */
final class AsyncBackedTable implements Table {

    private final AsyncConnection connection;
    private final AsyncTable<?> table;

    AsyncBackedTable(AsyncConnection connection, TableName tableName) {
        this.connection = connection;
        this.table = connection.getTable(tableName);
    }

    @Override
    public TableName getName() {
        return table.getName();
    }

    @Override
    public Configuration getConfiguration() {
        return connection.getConfiguration();
    }

    @Override
    public TableDescriptor getDescriptor() throws IOException {
        return await(table.getDescriptor());
    }

    @Override
    public RegionLocator getRegionLocator() {
        throw new UnsupportedOperationException("an AsyncTTable does not offer region locations; ask the"
                + " AsyncConnection's getRegionLocator");
    }

    @Override
    public Result get(Get get) throws IOException {
        return await(table.get(get));
    }

    @Override
    public Result[] get(List<Get> gets) throws IOException {
        return await(table.getAll(gets)).toArray(new Result[0]);
    }

    @Override
    public boolean exists(Get get) throws IOException {
        return await(table.exists(get));
    }

    @Override
    public void put(Put put) throws IOException {
        await(table.put(put));
    }

    @Override
    public void put(List<Put> puts) throws IOException {
        await(table.putAll(puts));
    }

    /** Nothing to release: an AsyncTable holds no resources of its own. */
    @Override
    public void close() {
    }

    private static <T> T await(CompletableFuture<T> future) throws IOException {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw (IOException) new InterruptedIOException("interrupted while waiting for HBase").initCause(e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException) {
                throw (IOException) cause;
            }
            if (cause instanceof RuntimeException) {
                throw (RuntimeException) cause;
            }
            throw new IOException(cause);
        }
    }
}
