package io.tidemark.example;

import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionAbortedException;
import io.tidemark.client.TransactionManager;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;

/**
 * Two concurrent transactions write the same cell: the first to commit wins, the second aborts with reason
 * {@code CONFLICT} and none of its writes become visible. Prints one line per transaction's outcome.
 */
public final class WriteConflict {

    private static final byte[] FAMILY = Bytes.toBytes("a");
    private static final byte[] BALANCE = Bytes.toBytes("balance");
    private static final byte[] ACCOUNT = Bytes.toBytes("bob");

    private WriteConflict() {
    }

    public static void main(String[] args) throws IOException {
        // Like Deposit: hbase-site.xml on the classpath names the cluster, whose ZooKeeper names the active TSO.
        try (Connection connection = ConnectionFactory.createConnection(HBaseConfiguration.create());
             TransactionManager tm = TransactionManager.builder(connection).config(TidemarkConfig.load()).build();
             TTable accounts = new TTable(connection, TableName.valueOf("accounts"))) {
            // Both begin before either commits, so neither sees the other's write: they are concurrent.
            Transaction first = tm.begin();
            Transaction second = tm.begin();
            accounts.put(first, new Put(ACCOUNT).addColumn(FAMILY, BALANCE, Bytes.toBytes(100L)));
            accounts.put(second, new Put(ACCOUNT).addColumn(FAMILY, BALANCE, Bytes.toBytes(200L)));
            System.out.println("first writer: " + commit(tm, first));
            System.out.println("second writer: " + commit(tm, second));
        }
    }

    /** Commits {@code tx} and says what happened to it. */
    private static String commit(TransactionManager tm, Transaction tx) throws IOException {
        try {
            tm.commit(tx);
            return "committed (start " + tx.startTimestamp() + ", commit " + tx.commitTimestamp() + ")";
        } catch (TransactionAbortedException e) {
            return "aborted (start " + tx.startTimestamp() + ", reason " + e.reason() + ")";
        }
    }
}
