package io.tidemark.bench.txn;

import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;

import java.io.IOException;
import java.util.concurrent.locks.LockSupport;

/**
 * The baseline: the same operations as plain HBase gets and puts, one after the other, with no transaction; in
 * {@link TxMode#RAW_PAUSED} after the mode's pause, which the measured latency leaves out.
 */
final class RawHBaseDriver implements TxDriver {

    private final TxMode mode;
    private final long pauseNanos;
    private final Connection connection;
    private final TableName tableName;
    private final int keys;
    private final int valueBytes;

    RawHBaseDriver(TxMode mode, Connection connection, TableName tableName, int keys, int valueBytes)
            throws IOException {
        if (mode.isTransactional()) {
            throw new IllegalArgumentException("raw HBase runs no " + mode + " transactions");
        }
        this.mode = mode;
        this.pauseNanos = mode.pauseBeforeOperations().toNanos();
        this.connection = connection;
        this.tableName = tableName;
        this.keys = keys;
        this.valueBytes = valueBytes;
        DataTable.recreateForRawHBase(connection, tableName);
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
                if (pauseNanos > 0) {
                    LockSupport.parkNanos(pauseNanos);
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
        DataTable.drop(connection, tableName);
    }
}
