package io.tidemark.workload.bank;

import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionAbortedException;
import io.tidemark.client.TransactionManager;
import org.apache.hadoop.hbase.client.Connection;

import java.io.IOException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;

/**
 * Moves random amounts between random pairs of accounts until told to stop: read both balances, write both, commit.
 * A transfer that aborts (a concurrent transfer touched the same account) is retried until it commits.
 */
final class TransferWorker implements Runnable {

    private final TransactionManager tm;
    private final Connection connection;
    private final BankAccounts accounts;
    private final long maxAmount;
    private final BankStats stats;
    private final BooleanSupplier stop;
    private final TransferObserver observer;

    TransferWorker(TransactionManager tm, Connection connection, BankAccounts accounts, long maxAmount,
                   BankStats stats, BooleanSupplier stop, TransferObserver observer) {
        this.observer = observer;
        this.tm = tm;
        this.connection = connection;
        this.accounts = accounts;
        this.maxAmount = maxAmount;
        this.stats = stats;
        this.stop = stop;
    }

    @Override
    public void run() {
        try (TTable table = new TTable(connection, accounts.tableName())) {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            while (!stop.getAsBoolean()) {
                int from = random.nextInt(accounts.accounts());
                int to = random.nextInt(accounts.accounts() - 1);
                if (to >= from) {
                    to++;
                }
                long amount = 1 + random.nextLong(maxAmount);
                while (!stop.getAsBoolean() && !transfer(table, from, to, amount)) {
                    Thread.onSpinWait();
                }
            }
        } catch (IOException e) {
            stats.recordError(e);
        }
    }

    /** One attempt; true when it committed. */
    private boolean transfer(TTable table, int from, int to, long amount) {
        long started = System.nanoTime();
        Transaction tx;
        try {
            tx = tm.begin();
        } catch (IOException e) {
            stats.recordError(e);
            return false;
        }
        try {
            long fromBalance = BankAccounts.balance(table.get(tx, accounts.balanceOf(from)), from);
            long toBalance = BankAccounts.balance(table.get(tx, accounts.balanceOf(to)), to);
            // Never overdraw: move what is there when the account holds less than asked.
            long moved = Math.min(amount, fromBalance);
            table.put(tx, accounts.setBalance(from, fromBalance - moved));
            table.put(tx, accounts.setBalance(to, toBalance + moved));
            tm.commit(tx);
            stats.recordCommit(System.nanoTime() - started);
            observer.committed(from, to, moved, tx.commitTimestamp());
            return true;
        } catch (TransactionAbortedException e) {
            stats.recordAbort();
            return false;
        } catch (IOException | RuntimeException e) {
            stats.recordError(e);
            rollbackQuietly(tx);
            return false;
        }
    }

    private void rollbackQuietly(Transaction tx) {
        try {
            tm.rollback(tx);
        } catch (RuntimeException e) {
            // Already finished (e.g. the failed commit settled it): its writes are invisible either way.
        }
    }
}
