package io.tidemark.workload.bank;

import io.tidemark.bench.report.LatencySummary;
import io.tidemark.client.TTable;
import io.tidemark.client.TransactionManager;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The bank-transfer workload: concurrent transfers between accounts, with conflicts and aborts, while an auditor
 * checks in snapshot after snapshot that no money appears or disappears. It exercises exactly what Tidemark
 * promises (snapshot isolation, no lost updates, atomic commits) and is the quick start's demonstration.
 */
public final class BankWorkload {

    private static final long PROGRESS_INTERVAL_MILLIS = 250;

    private final Connection connection;
    private final TidemarkConfig clientConfig;
    private final BankOptions options;
    private TransferObserver observer = TransferObserver.NONE;

    public BankWorkload(Connection connection, TidemarkConfig clientConfig, BankOptions options) {
        this.connection = connection;
        this.clientConfig = clientConfig;
        this.options = options;
    }

    /** Told about every committed transfer (from the transfer threads). */
    public BankWorkload observe(TransferObserver transferObserver) {
        this.observer = transferObserver;
        return this;
    }

    /** Runs without progress reports. */
    public BankResult run() throws IOException, InterruptedException {
        return run(progress -> { });
    }

    /**
     * Creates the accounts, runs transfers and audits until the duration or transfer count is reached, then audits
     * once more after every transfer has finished. {@code progress} is called on the calling thread.
     */
    public BankResult run(Consumer<BankProgress> progress) throws IOException, InterruptedException {
        return run(progress, () -> false);
    }

    /**
     * As {@link #run(Consumer)}, also stopping early once {@code stopRequested} says so (checked a few times a
     * second).
     */
    public BankResult run(Consumer<BankProgress> progress, BooleanSupplier stopRequested)
            throws IOException, InterruptedException {
        BankAccounts accounts = new BankAccounts(TableName.valueOf(options.tableName()), options.accounts());
        accounts.recreate(connection, clientConfig);
        try (TransactionManager tm = TransactionManager.builder(connection).config(clientConfig).build()) {
            try (TTable table = new TTable(connection, accounts.tableName())) {
                accounts.open(tm, table, options.initialBalance());
            }

            BankStats stats = new BankStats();
            AtomicBoolean stopping = new AtomicBoolean();
            BooleanSupplier stop = () -> stopping.get() || Thread.currentThread().isInterrupted();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < options.threads(); i++) {
                threads.add(new Thread(new TransferWorker(tm, connection, accounts, options.maxAmount(), stats, stop,
                        observer),
                        "bank-transfer-" + i));
            }
            Auditor auditor = new Auditor(tm, connection, accounts, options.expectedTotal(), stats, stop);
            threads.add(new Thread(auditor, "bank-auditor"));

            long started = System.nanoTime();
            threads.forEach(Thread::start);
            long durationMillis = options.duration().toMillis();
            long elapsed = 0;
            progress.accept(new BankProgress(0, durationMillis, 0, 0, 0));
            try {
                while (elapsed < durationMillis && !transferLimitReached(stats) && !stopRequested.getAsBoolean()) {
                    Thread.sleep(Math.min(PROGRESS_INTERVAL_MILLIS, durationMillis - elapsed));
                    elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
                    progress.accept(new BankProgress(Math.min(elapsed, durationMillis), durationMillis,
                            stats.committed(), stats.aborted(), stats.audits()));
                }
            } finally {
                stopping.set(true);
                for (Thread t : threads) {
                    t.join();
                }
            }
            elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            long[] finalBalances = auditor.audit();
            return new BankResult(stats.committed(), stats.aborted(), stats.errors(), stats.audits(),
                    stats.violation() == null, stats.violation(), stats.firstError(),
                    LatencySummary.of(stats.latencyMicros()), elapsed, finalBalances);
        }
    }

    private boolean transferLimitReached(BankStats stats) {
        return options.maxTransfers() > 0 && stats.committed() >= options.maxTransfers();
    }
}
