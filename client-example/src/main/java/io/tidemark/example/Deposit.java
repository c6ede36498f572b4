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
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;

public final class Deposit {

    private static final byte[] FAMILY = Bytes.toBytes("a");
    private static final byte[] BALANCE = Bytes.toBytes("balance");
    private static final int MAX_ATTEMPTS = 5;

    public static void main(String[] args) throws IOException {
        // hbase-site.xml (whose ZooKeeper names the active TSO) and tidemark-site.xml come from the classpath.
        try (Connection connection = ConnectionFactory.createConnection(HBaseConfiguration.create());
             TransactionManager tm = TransactionManager.builder(connection).config(TidemarkConfig.load()).build();
             TTable accounts = new TTable(connection, TableName.valueOf("accounts"))) {
            deposit(tm, accounts, Bytes.toBytes("alice"), 10);
        }
    }

    /** Adds {@code amount} to the account; retried when a concurrent transaction wrote it first. */
    static void deposit(TransactionManager tm, TTable accounts, byte[] account, long amount) throws IOException {
        for (int attempt = 1; ; attempt++) {
            Transaction tx = tm.begin();
            Result current = accounts.get(tx, new Get(account).addColumn(FAMILY, BALANCE));
            long balance = current.isEmpty() ? 0 : Bytes.toLong(current.getValue(FAMILY, BALANCE));
            accounts.put(tx, new Put(account).addColumn(FAMILY, BALANCE, Bytes.toBytes(balance + amount)));
            try {
                tm.commit(tx);
                return;
            } catch (TransactionAbortedException e) {
                // Nothing of tx is visible; e.reason() says why (CONFLICT: someone else wrote the account first).
                if (attempt == MAX_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }
}
