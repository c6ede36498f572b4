package io.tidemark.workload.bank;

import java.time.Duration;

/**
 * Shape of a bank run: how many accounts with what starting balance, how many transfer threads, and when to stop
 * (after {@code duration}, or after {@code maxTransfers} committed transfers when that is positive, whichever
 * comes first).
 */
public record BankOptions(String tableName, int accounts, long initialBalance, int threads, long maxAmount,
                          Duration duration, long maxTransfers) {

    public BankOptions {
        if (tableName == null || tableName.isEmpty()) {
            throw new IllegalArgumentException("table name must not be empty");
        }
        if (accounts < 2) {
            throw new IllegalArgumentException("a bank needs at least 2 accounts, got " + accounts);
        }
        if (initialBalance < 0) {
            throw new IllegalArgumentException("initial balance must not be negative, got " + initialBalance);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        if (maxAmount < 1) {
            throw new IllegalArgumentException("largest transfer must be at least 1, got " + maxAmount);
        }
        if (duration == null || duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("duration must be positive, got " + duration);
        }
        if (maxTransfers < 0) {
            throw new IllegalArgumentException("transfer count must not be negative (0 = unbounded), got "
                    + maxTransfers);
        }
    }

    /** 100 accounts of 1,000, 4 threads, transfers of up to 100, for 15 s. */
    public static BankOptions defaults() {
        return new BankOptions("bank_accounts", 100, 1_000, 4, 100, Duration.ofSeconds(15), 0);
    }

    public BankOptions withTableName(String name) {
        return new BankOptions(name, accounts, initialBalance, threads, maxAmount, duration, maxTransfers);
    }

    public BankOptions withAccounts(int count) {
        return new BankOptions(tableName, count, initialBalance, threads, maxAmount, duration, maxTransfers);
    }

    public BankOptions withThreads(int count) {
        return new BankOptions(tableName, accounts, initialBalance, count, maxAmount, duration, maxTransfers);
    }

    public BankOptions withDuration(Duration d) {
        return new BankOptions(tableName, accounts, initialBalance, threads, maxAmount, d, maxTransfers);
    }

    public BankOptions withMaxTransfers(long count) {
        return new BankOptions(tableName, accounts, initialBalance, threads, maxAmount, duration, count);
    }

    /** The sum of all balances, which no committed transfer may change. */
    public long expectedTotal() {
        return Math.multiplyExact(initialBalance, (long) accounts);
    }
}
