package io.tidemark.bench.e2e;

import io.tidemark.bench.ScratchTables;
import io.tidemark.client.PostCommitMode;
import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionAbortedException;
import io.tidemark.client.TransactionManager;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.table.TableFeature;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * Tidemark transactions: begin, the gets and puts of the transaction, commit. On a table with the fast path a
 * transaction whose writes fall in one region commits with one request to it (a single-region commit); any other,
 * through the TSO.
 */
final class TidemarkStore implements KeyValueStore {

    /** Rows written per transaction while preloading (by Omid's store as well). */
    static final int PRELOAD_ROWS_PER_TRANSACTION = 500;

    private final Connection connection;
    private final TableName tableName;
    private final TransactionManager tm;

    TidemarkStore(Connection connection, TableName tableName, Set<TableFeature> features, TidemarkConfig clientConfig,
                  PostCommitMode postCommit, byte[][] splitKeys) throws IOException {
        this.connection = connection;
        this.tableName = tableName;
        ScratchTables.recreate(connection, tableName, Bytes.toString(FAMILY), features, clientConfig, splitKeys);
        this.tm = TransactionManager.builder(connection).config(clientConfig).postCommit(postCommit).build();
    }

    @Override
    public void preload(int rows, byte[] value) throws IOException {
        preload(tm, connection, tableName, rows, value);
    }

    /**
     * Writes rows 0 to {@code rows - 1} in transactions of {@value #PRELOAD_ROWS_PER_TRANSACTION} rows: a row written
     * behind Tidemark's back would look like an unfinished transaction.
     */
    static void preload(TransactionManager tm, Connection connection, TableName tableName, int rows, byte[] value)
            throws IOException {
        try (TTable table = new TTable(connection, tableName)) {
            for (int first = 0; first < rows; first += PRELOAD_ROWS_PER_TRANSACTION) {
                Transaction tx = tm.begin();
                for (int key = first; key < Math.min(rows, first + PRELOAD_ROWS_PER_TRANSACTION); key++) {
                    table.put(tx, new Operation(key, value).put());
                }
                tm.commit(tx);
            }
        }
    }

    @Override
    public Session session() throws IOException {
        TTable table = new TTable(connection, tableName);
        return new Session() {
            @Override
            public boolean run(List<Operation> operations) throws IOException {
                Transaction tx = tm.begin();
                try {
                    for (Operation op : operations) {
                        if (op.isRead()) {
                            table.get(tx, op.get());
                        } else {
                            table.put(tx, op.put());
                        }
                    }
                    tm.commit(tx);
                    return true;
                } catch (TransactionAbortedException e) {
                    // A read aborts too: with lazy begin, the one that begins it when the row read first changed.
                    return false;
                }
            }

            @Override
            public void close() throws IOException {
                table.close();
            }
        };
    }

    @Override
    public void close() throws IOException {
        tm.close();
    }
}
