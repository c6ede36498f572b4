package io.tidemark.bench.e2e;

import io.tidemark.bench.ScratchTables;
import io.tidemark.bench.omid.OmidTso;
import io.tidemark.client.PostCommitMode;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.omid.transaction.HBaseTransactionManager;
import org.apache.omid.transaction.RollbackException;
import org.apache.omid.transaction.TTable;
import org.apache.omid.transaction.Transaction;
import org.apache.omid.transaction.TransactionException;
import org.apache.omid.transaction.TransactionManager;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;

/**
 * Apache Omid's transactions in low-latency mode, for comparison: begin, the gets and puts of the transaction through
 * Omid's own {@code TTable}, commit. Omid's client keeps its defaults (conflicts per cell, the snapshot filter in the
 * client, no Omid coprocessor) but for the post-commit, which follows Tidemark's for a like-for-like run. The table
 * is a plain HBase table that keeps every version, as Omid needs.
 */
final class OmidStore implements KeyValueStore {

    private final Connection connection;
    private final TableName tableName;
    private final TransactionManager tm;

    OmidStore(Connection connection, TableName tableName, OmidTso tso, PostCommitMode postCommit, byte[][] splitKeys)
            throws IOException {
        this.connection = connection;
        this.tableName = tableName;
        ScratchTables.recreateForRawHBase(connection, tableName, Bytes.toString(FAMILY), splitKeys);
        try {
            this.tm = HBaseTransactionManager.builder(tso.clientConfiguration(postCommit)).build();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while connecting to Omid's TSO");
        }
    }

    @Override
    public void preload(int rows, byte[] value) throws IOException {
        try (TTable table = new TTable(connection, tableName.getNameAsString())) {
            int perTransaction = TidemarkStore.PRELOAD_ROWS_PER_TRANSACTION;
            for (int first = 0; first < rows; first += perTransaction) {
                Transaction tx = begin();
                for (int key = first; key < Math.min(rows, first + perTransaction); key++) {
                    table.put(tx, new Operation(key, value).put());
                }
                if (!commit(tx)) {
                    throw new IOException("Omid aborted a preload transaction that had no competitor");
                }
            }
        }
    }

    @Override
    public Session session() throws IOException {
        TTable table = new TTable(connection, tableName.getNameAsString());
        return new Session() {
            @Override
            public boolean run(List<Operation> operations) throws IOException {
                Transaction tx = begin();
                for (Operation op : operations) {
                    if (op.isRead()) {
                        table.get(tx, op.get());
                    } else {
                        table.put(tx, op.put());
                    }
                }
                return commit(tx);
            }

            @Override
            public void close() throws IOException {
                table.close();
            }
        };
    }

    private Transaction begin() throws IOException {
        try {
            return tm.begin();
        } catch (TransactionException e) {
            throw new IOException("Omid could not begin a transaction", e);
        }
    }

    private boolean commit(Transaction tx) throws IOException {
        try {
            tm.commit(tx);
            return true;
        } catch (RollbackException e) {
            return false;
        } catch (TransactionException e) {
            throw new IOException("Omid could not commit " + tx, e);
        }
    }

    @Override
    public void close() throws IOException {
        tm.close();
    }
}
