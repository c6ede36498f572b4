package io.tidemark.workload.bank;

import io.tidemark.bench.ScratchTables;
import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionManager;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.Locale;

/** The accounts table: one row per account, one column holding the balance as an 8-byte long. */
final class BankAccounts {

    static final byte[] FAMILY = Bytes.toBytes("a");
    static final byte[] BALANCE = Bytes.toBytes("balance");

    /** Accounts created per transaction, so that a large bank does not make one huge commit. */
    private static final int ACCOUNTS_PER_TRANSACTION = 1_000;

    private final TableName tableName;
    private final int accounts;

    BankAccounts(TableName tableName, int accounts) {
        this.tableName = tableName;
        this.accounts = accounts;
    }

    TableName tableName() {
        return tableName;
    }

    int accounts() {
        return accounts;
    }

    static byte[] row(int account) {
        return Bytes.toBytes(String.format(Locale.ROOT, "account-%08d", account));
    }

    Get balanceOf(int account) {
        return new Get(row(account)).addColumn(FAMILY, BALANCE);
    }

    Put setBalance(int account, long balance) {
        return new Put(row(account)).addColumn(FAMILY, BALANCE, Bytes.toBytes(balance));
    }

    Scan allBalances() {
        return new Scan().addColumn(FAMILY, BALANCE);
    }

    /** The balance in a result, failing when the account is missing (a lost write, never a normal state). */
    static long balance(Result result, int account) {
        byte[] value = result.getValue(FAMILY, BALANCE);
        if (value == null) {
            throw new IllegalStateException("account " + account + " has no balance");
        }
        return Bytes.toLong(value);
    }

    /** Drops a table left by an earlier run, then creates it as a transactional table of {@code clientConfig}. */
    void recreate(Connection connection, TidemarkConfig clientConfig) throws IOException {
        ScratchTables.recreate(connection, tableName, Bytes.toString(FAMILY), clientConfig);
    }

    /** Opens every account with {@code initialBalance}, in committed transactions. */
    void open(TransactionManager tm, TTable table, long initialBalance) throws IOException {
        for (int first = 0; first < accounts; first += ACCOUNTS_PER_TRANSACTION) {
            Transaction tx = tm.begin();
            for (int a = first; a < Math.min(accounts, first + ACCOUNTS_PER_TRANSACTION); a++) {
                table.put(tx, setBalance(a, initialBalance));
            }
            tm.commit(tx);
        }
    }
}
