package io.tidemark.ycsb;

import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The baseline: plain HBase operations, no transactions; an explicit "transaction" is just its operations. */
final class RawRecordStore implements RecordStore {

    private final Connection connection;
    private final Map<TableName, Table> tables = new HashMap<>();

    RawRecordStore(Connection connection) {
        this.connection = connection;
    }

    @Override
    public Result get(TableName table, Get get) throws IOException {
        return table(table).get(get);
    }

    @Override
    public List<Result> scan(TableName table, Scan scan) throws IOException {
        List<Result> rows = new ArrayList<>();
        try (ResultScanner scanner = table(table).getScanner(scan)) {
            for (Result row : scanner) {
                rows.add(row);
            }
        }
        return rows;
    }

    @Override
    public void put(TableName table, Put put) throws IOException {
        table(table).put(put);
    }

    @Override
    public void delete(TableName table, Delete delete) throws IOException {
        table(table).delete(delete);
    }

    @Override
    public void begin() {
        // Nothing to begin: without transactions the operations simply run one after another.
    }

    @Override
    public void commit() {
        // Every operation was already applied when it ran.
    }

    @Override
    public void rollback() {
        // Cannot be undone without transactions; the baseline only measures the operations.
    }

    private Table table(TableName name) throws IOException {
        Table table = tables.get(name);
        if (table == null) {
            table = connection.getTable(name);
            tables.put(name, table);
        }
        return table;
    }

    @Override
    public void close() throws IOException {
        IOException first = Closing.closeAll(tables.values(), null);
        tables.clear();
        if (first != null) {
            throw first;
        }
    }
}
