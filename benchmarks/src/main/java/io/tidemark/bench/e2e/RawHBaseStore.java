package io.tidemark.bench.e2e;

import io.tidemark.bench.ScratchTables;
import io.tidemark.bench.txn.BeginRoundTrips;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Plain HBase gets and puts, one after the other (a transaction of writes only as one multi-put, as an application
 * would send them): the baseline without transactions; optionally each transaction's right after a BEGIN round trip,
 * which the measured latency leaves out, as a transaction's operations follow its BEGIN (docs/benchmarks-history.md,
 * "Ratios over a baseline after BEGIN").
 */
final class RawHBaseStore implements KeyValueStore {

    private final Connection connection;
    private final TableName tableName;
    /** Null when the operations run back to back. */
    private final BeginRoundTrips beginner;

    /** @param tsoConfig the TSO to begin at before each operation, or null for none */
    RawHBaseStore(Connection connection, TableName tableName, TidemarkConfig tsoConfig, byte[][] splitKeys)
            throws IOException {
        this.connection = connection;
        this.tableName = tableName;
        ScratchTables.recreateForRawHBase(connection, tableName, Bytes.toString(FAMILY), splitKeys);
        this.beginner = tsoConfig == null ? null : new BeginRoundTrips(connection, tsoConfig);
    }

    @Override
    public void preload(int rows, byte[] value) throws IOException {
        try (BufferedMutator mutator = connection.getBufferedMutator(tableName)) {
            for (int key = 0; key < rows; key++) {
                mutator.mutate(new Operation(key, value).put());
            }
        }
    }

    @Override
    public Session session() throws IOException {
        Table table = connection.getTable(tableName);
        return new Session() {
            @Override
            public void beforeTransaction() throws IOException {
                if (beginner != null) {
                    beginner.run();
                }
            }

            @Override
            public boolean run(List<Operation> operations) throws IOException {
                if (operations.size() > 1 && operations.stream().noneMatch(Operation::isRead)) {
                    table.put(operations.stream().map(Operation::put).collect(Collectors.toList()));
                    return true;
                }
                for (Operation op : operations) {
                    if (op.isRead()) {
                        table.get(op.get());
                    } else {
                        table.put(op.put());
                    }
                }
                return true;
            }

            @Override
            public void close() throws IOException {
                table.close();
            }
        };
    }

    @Override
    public void close() {
        if (beginner != null) {
            beginner.close();
        }
    }
}
