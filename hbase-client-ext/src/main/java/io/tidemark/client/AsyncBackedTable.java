package io.tidemark.client;

import io.tidemark.concurrent.Futures;
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
import java.util.List;

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
        return Futures.await(table.getDescriptor(), "HBase's getDescriptor");
    }

    @Override
    public RegionLocator getRegionLocator() {
        throw new UnsupportedOperationException("an AsyncTTable does not offer region locations; ask the"
                + " AsyncConnection's getRegionLocator");
    }

    @Override
    public Result get(Get get) throws IOException {
        return Futures.await(table.get(get), "HBase's get");
    }

    @Override
    public Result[] get(List<Get> gets) throws IOException {
        return Futures.await(table.getAll(gets), "HBase's get").toArray(new Result[0]);
    }

    @Override
    public boolean exists(Get get) throws IOException {
        return Futures.await(table.exists(get), "HBase's exists");
    }

    @Override
    public void put(Put put) throws IOException {
        Futures.await(table.put(put), "HBase's put");
    }

    @Override
    public void put(List<Put> puts) throws IOException {
        Futures.await(table.putAll(puts), "HBase's put");
    }

    /** Nothing to release: an AsyncTable holds no resources of its own. */
    @Override
    public void close() {
    }
}
