package io.tidemark.bench.txn;

import io.tidemark.client.PostCommitMode;
import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionAbortedException;
import io.tidemark.client.TransactionManager;
import io.tidemark.client.fastpath.FastPathTable;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.fastpath.FastPathConflictException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;

import java.io.IOException;

/**
 * Tidemark transactions through a {@link TransactionManager} of a running TSO. In {@link TxMode#FASTPATH} a
 * transaction of one operation is a single fast-path operation instead (read = get, update = put; no TSO round trip,
 * docs/fast-path.md), on a table with the fast-path coprocessor; longer transactions stay generic.
 */
final class TidemarkDriver implements TxDriver {

    /** Rows written per transaction while preloading. */
    private static final int PRELOAD_ROWS_PER_TRANSACTION = 500;

    private final TxMode mode;
    private final Connection connection;
    private final TableName tableName;
    private final int keys;
    private final int valueBytes;
    private final TransactionManager tm;
    /** The phases of the last commit of each client thread, as the manager reported them on that thread. */
    private final ThreadLocal<CommitPhases> lastCommit = ThreadLocal.withInitial(() -> CommitPhases.NONE);

    TidemarkDriver(TxMode mode, Connection connection, TableName tableName, int keys, int valueBytes,
                   TidemarkConfig clientConfig, PostCommitMode postCommit) throws IOException {
        this.mode = mode;
        this.connection = connection;
        this.tableName = tableName;
        this.keys = keys;
        this.valueBytes = valueBytes;
        if (mode.usesFastPath()) {
            DataTable.recreateWithFastPath(connection, tableName, clientConfig);
        } else {
            DataTable.recreate(connection, tableName, clientConfig);
        }
        this.tm = TransactionManager.builder(connection).config(clientConfig).postCommit(postCommit)
                .commitPhaseListener((tso, record, postCommitNanos) ->
                        lastCommit.set(new CommitPhases(tso, record, postCommitNanos)))
                .build();
    }

    @Override
    public TxMode mode() {
        return mode;
    }

    @Override
    public void preload() throws IOException {
        // Through transactions: a row written behind Tidemark's back would look like an unfinished transaction.
        byte[] value = new byte[valueBytes];
        try (TTable table = new TTable(connection, tableName)) {
            for (int first = 0; first < keys; first += PRELOAD_ROWS_PER_TRANSACTION) {
                Transaction tx = tm.begin();
                for (int key = first; key < Math.min(keys, first + PRELOAD_ROWS_PER_TRANSACTION); key++) {
                    table.put(tx, new Put(DataTable.row(key)).addColumn(DataTable.FAMILY, DataTable.QUALIFIER,
                            value));
                }
                tm.commit(tx);
            }
        }
    }

    @Override
    public Session session() throws IOException {
        TTable table = new TTable(connection, tableName);
        FastPathTable fastPath = mode.usesFastPath()
                ? FastPathTable.builder(connection, tableName).transactionManager(tm).build() : null;
        return new Session() {
            @Override
            public TxOutcome run(Operation[] ops, byte[] value) throws IOException {
                if (fastPath != null && ops.length == 1) {
                    return runOnFastPath(fastPath, ops[0], value);
                }
                long started = System.nanoTime();
                Transaction tx = tm.begin();
                long begun = System.nanoTime();
                for (Operation op : ops) {
                    byte[] row = DataTable.row(op.key());
                    if (op.read()) {
                        table.get(tx, new Get(row).addColumn(DataTable.FAMILY, DataTable.QUALIFIER));
                    } else {
                        table.put(tx, new Put(row).addColumn(DataTable.FAMILY, DataTable.QUALIFIER, value));
                    }
                }
                lastCommit.set(CommitPhases.NONE);
                long operated = System.nanoTime();
                boolean committed;
                try {
                    tm.commit(tx);
                    committed = true;
                } catch (TransactionAbortedException e) {
                    committed = false;
                }
                long finished = System.nanoTime();
                return new TxOutcome(committed, begun - started, operated - begun, finished - operated,
                        lastCommit.get());
            }

            @Override
            public void close() throws IOException {
                try {
                    table.close();
                } finally {
                    if (fastPath != null) {
                        fastPath.close();
                    }
                }
            }
        };
    }

    /** One RPC, no begin or commit: all of its time is the operation. A refused write is an abort. */
    private static TxOutcome runOnFastPath(FastPathTable table, Operation op, byte[] value) throws IOException {
        byte[] row = DataTable.row(op.key());
        long started = System.nanoTime();
        boolean committed = true;
        try {
            if (op.read()) {
                table.get(new Get(row).addColumn(DataTable.FAMILY, DataTable.QUALIFIER));
            } else {
                table.put(new Put(row).addColumn(DataTable.FAMILY, DataTable.QUALIFIER, value));
            }
        } catch (FastPathConflictException e) {
            committed = false;
        }
        return new TxOutcome(committed, 0, System.nanoTime() - started, 0);
    }

    @Override
    public void close() throws IOException {
        tm.close();
        DataTable.drop(connection, tableName);
    }
}
