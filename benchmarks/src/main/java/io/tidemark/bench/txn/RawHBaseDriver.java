package io.tidemark.bench.txn;

import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;

import java.io.IOException;

/**
 * The baseline: the same operations as plain HBase gets and puts, one after the other, with no transaction; in
 * {@link TxMode#RAW_AFTER_BEGIN} each group of operations right after a BEGIN round trip, which the measured latency
 * leaves out.
 */
final class RawHBaseDriver implements TxDriver {

    private final TxMode mode;
    private final Connection connection;
    private final TableName tableName;
    private final int keys;
    private final int valueBytes;
    /** Null in {@link TxMode#RAW}. */
    private final BeginRoundTrips beginner;

    /** @param tsoConfig the TSO to begin at in {@link TxMode#RAW_AFTER_BEGIN}, else null */
    RawHBaseDriver(TxMode mode, Connection connection, TableName tableName, int keys, int valueBytes,
                   TidemarkConfig tsoConfig) throws IOException {
        if (mode.isTransactional() || (mode.commitMode() == null) != (tsoConfig == null)) {
            throw new IllegalArgumentException("raw HBase in mode " + mode + (tsoConfig == null ? " without" : " with")
                    + " a TSO");
        }
        this.mode = mode;
        this.connection = connection;
        this.tableName = tableName;
        this.keys = keys;
        this.valueBytes = valueBytes;
        DataTable.recreateForRawHBase(connection, tableName);
        this.beginner = tsoConfig == null ? null : new BeginRoundTrips(connection, tsoConfig);
    }

    @Override
    public TxMode mode() {
        return mode;
    }

    @Override
    public void preload() throws IOException {
        byte[] value = new byte[valueBytes];
        try (BufferedMutator mutator = connection.getBufferedMutator(tableName)) {
            for (int key = 0; key < keys; key++) {
                mutator.mutate(new Put(DataTable.row(key)).addColumn(DataTable.FAMILY, DataTable.QUALIFIER, value));
            }
        }
    }

    @Override
    public Session session() throws IOException {
        Table table = connection.getTable(tableName);
        return new Session() {
            @Override
            public TxOutcome run(Operation[] ops, byte[] value) throws IOException {
                if (beginner != null) {
                    beginner.run();
                }
                long started = System.nanoTime();
                for (Operation op : ops) {
                    byte[] row = DataTable.row(op.key());
                    if (op.read()) {
                        table.get(new Get(row).addColumn(DataTable.FAMILY, DataTable.QUALIFIER));
                    } else {
                        table.put(new Put(row).addColumn(DataTable.FAMILY, DataTable.QUALIFIER, value));
                    }
                }
                return new TxOutcome(true, 0, System.nanoTime() - started, 0);
            }

            @Override
            public void close() throws IOException {
                table.close();
            }
        };
    }

    @Override
    public void close() throws IOException {
        try {
            if (beginner != null) {
                beginner.close();
            }
        } finally {
            DataTable.drop(connection, tableName);
        }
    }
}
