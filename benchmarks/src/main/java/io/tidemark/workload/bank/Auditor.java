package io.tidemark.workload.bank;

import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionManager;
import io.tidemark.client.TransactionState;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;

import java.io.IOException;
import java.util.function.BooleanSupplier;

/**
 * Reads every account in one snapshot, again and again, and checks that the accounts are all there and their
 * balances add up to the expected total: under snapshot isolation no snapshot may show half a transfer.
 */
final class Auditor implements Runnable {

    /** Pause between audits, so the auditor does not starve the transfer threads of CPU. */
    private static final long PAUSE_MILLIS = 20;

    private final TransactionManager tm;
    private final Connection connection;
    private final BankAccounts accounts;
    private final long expectedTotal;
    private final BankStats stats;
    private final BooleanSupplier stop;

    Auditor(TransactionManager tm, Connection connection, BankAccounts accounts, long expectedTotal,
            BankStats stats, BooleanSupplier stop) {
        this.tm = tm;
        this.connection = connection;
        this.accounts = accounts;
        this.expectedTotal = expectedTotal;
        this.stats = stats;
        this.stop = stop;
    }

    @Override
    public void run() {
        while (!stop.getAsBoolean()) {
            try {
                audit();
                Thread.sleep(PAUSE_MILLIS);
            } catch (IOException | RuntimeException e) {
                stats.recordError(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** One audit; a failed check is recorded in the stats. Returns the balances the snapshot saw, in scan order. */
    long[] audit() throws IOException {
        Transaction tx = tm.begin();
        long total = 0;
        int seen = 0;
        long[] balances = new long[accounts.accounts()];
        try (TTable table = new TTable(connection, accounts.tableName());
             ResultScanner scanner = table.getScanner(tx, accounts.allBalances())) {
            for (Result r : scanner) {
                long balance = BankAccounts.balance(r, seen);
                if (seen < balances.length) {
                    balances[seen] = balance;
                }
                total += balance;
                seen++;
            }
        } finally {
            // Read-only: there is nothing to make durable, and rolling back never aborts. A refused read (snapshot
            // too old) has rolled the transaction back already.
            if (tx.state() == TransactionState.RUNNING) {
                tm.rollback(tx);
            }
        }
        stats.recordAudit();
        if (seen != accounts.accounts() || total != expectedTotal) {
            stats.recordViolation("snapshot " + tx.startTimestamp() + " saw " + seen + " of " + accounts.accounts()
                    + " accounts with total " + total + " instead of " + expectedTotal);
        }
        return balances;
    }
}
