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
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.Set;

/**
 * Single-key Tidemark transactions: begin, one get or one put, commit. On a table with the fast path a write commits
 * with one request to its region (a single-region commit); without it, through the TSO.
 */
final class TidemarkStore implements KeyValueStore {

    /** Rows written per transaction while preloading. */
    private static final int PRELOAD_ROWS_PER_TRANSACTION = 500;

    private final Connection connection;
    private final TableName tableName;
    private final TransactionManager tm;

    TidemarkStore(Connection connection, TableName tableName, Set<TableFeature> features, TidemarkConfig clientConfig,
                  PostCommitMode postCommit) throws IOException {
        this.connection = connection;
        this.tableName = tableName;
        ScratchTables.recreate(connection, tableName, Bytes.toString(FAMILY), features, clientConfig);
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
                    table.put(tx, new Put(KeyValueStore.row(key)).addColumn(FAMILY, QUALIFIER, value));
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
            public boolean read(int key) throws IOException {
                Transaction tx = tm.begin();
                table.get(tx, new Get(KeyValueStore.row(key)).addColumn(FAMILY, QUALIFIER));
                return commit(tx);
            }

            @Override
            public boolean write(int key, byte[] value) throws IOException {
                Transaction tx = tm.begin();
                table.put(tx, new Put(KeyValueStore.row(key)).addColumn(FAMILY, QUALIFIER, value));
                return commit(tx);
            }

            @Override
            public void close() throws IOException {
                table.close();
            }
        };
    }

    private boolean commit(Transaction tx) throws IOException {
        try {
            tm.commit(tx);
            return true;
        } catch (TransactionAbortedException e) {
            return false;
        }
    }

    @Override
    public void close() throws IOException {
        tm.close();
    }
}
