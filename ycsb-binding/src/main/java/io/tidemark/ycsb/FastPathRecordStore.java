package io.tidemark.ycsb;

import io.tidemark.client.TransactionManager;
import io.tidemark.client.fastpath.FastPathTable;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code fastpath} mode: a read, write or delete outside an explicit transaction touches one row, so it runs as a
 * fast-path transaction inside the region server (read = brc, put and delete = bwc; docs/fast-path.md). Scans span
 * rows and explicit transactions span operations: both run as generic transactions, which is what an application
 * mixing the two paths does.
 */
final class FastPathRecordStore implements RecordStore {

    private final Connection connection;
    private final TransactionManager manager;
    private final TidemarkConfig config;
    private final TransactionalRecordStore generic;
    private final Map<TableName, FastPathTable> tables = new HashMap<>();
    private boolean inTransaction;

    FastPathRecordStore(Connection connection, TransactionManager manager, TidemarkConfig config) {
        this.connection = connection;
        this.manager = manager;
        this.config = config;
        this.generic = new TransactionalRecordStore(connection, manager);
    }

    @Override
    public Result get(TableName table, Get get) throws IOException {
        return inTransaction ? generic.get(table, get) : table(table).get(get).result();
    }

    @Override
    public List<Result> scan(TableName table, Scan scan) throws IOException {
        return generic.scan(table, scan);
    }

    @Override
    public void put(TableName table, Put put) throws IOException {
        if (inTransaction) {
            generic.put(table, put);
        } else {
            table(table).put(put);
        }
    }

    @Override
    public void delete(TableName table, Delete delete) throws IOException {
        if (inTransaction) {
            generic.delete(table, delete);
        } else {
            table(table).delete(delete);
        }
    }

    @Override
    public void begin() throws IOException {
        generic.begin();
        inTransaction = true;
    }

    @Override
    public void commit() throws IOException {
        inTransaction = false;
        generic.commit();
    }

    @Override
    public void rollback() {
        inTransaction = false;
        generic.rollback();
    }

    private FastPathTable table(TableName name) throws IOException {
        FastPathTable table = tables.get(name);
        if (table == null) {
            table = FastPathTable.builder(connection, name).transactionManager(manager).config(config).build();
            tables.put(name, table);
        }
        return table;
    }

    @Override
    public void close() throws IOException {
        IOException first = null;
        try {
            generic.close();
        } catch (IOException e) {
            first = e;
        }
        first = Closing.closeAll(tables.values(), first);
        tables.clear();
        if (first != null) {
            throw first;
        }
    }
}
