package io.tidemark.bench.failover;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.embedded.EmbeddedHBase;
import io.tidemark.embedded.TsoProcess;
import io.tidemark.workload.bank.BankOptions;
import io.tidemark.workload.bank.BankResult;
import io.tidemark.workload.bank.BankWorkload;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Kills the active TSO (a process of its own, kill -9) again and again while a standby TSO process waits and a bank
 * workload runs, and measures how long clients go without commits. Everything uses default Tidemark settings: the
 * lease timing, the client's timeouts and its discovery of the active TSO through ZooKeeper.
 *
 * <p>Each round: the workload runs for a while; the active TSO is killed; the standby must take over (it prints its
 * epoch); the failover time is from the kill to the first transfer reported committed above that epoch; the killed
 * TSO is started again and becomes the next standby. At the end the bank's auditor must never have seen a wrong
 * total, and every account must hold exactly its initial balance plus the transfers reported committed (so no
 * transfer is both reported committed and invisible, and none is visible without being reported).
 */
public final class FailoverBenchmark {

    private static final String NAMESPACE = "failover";
    private static final long INITIAL_BALANCE = 1_000;
    private static final Duration START_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration TAKEOVER_TIMEOUT = Duration.ofMinutes(1);

    private final FailoverOptions options;
    private final PrintStream log;
    private int launched;

    public FailoverBenchmark(FailoverOptions options, PrintStream log) {
        this.options = options;
        this.log = log;
    }

    public FailoverResult run() throws IOException, InterruptedException {
        Path work = Files.createDirectories(options.workDirectory());
        try (EmbeddedHBase hbase = EmbeddedHBase.start(work.resolve("hbase"), options.storage())) {
            Path site = writeSiteFile(hbase, work.resolve("hbase-site.xml"));
            log.printf(Locale.ROOT, "failover: HBase up; TSO logs and %s in %s%n", site.getFileName(), work);
            List<TsoProcess> tsos = new ArrayList<>();
            try {
                return runWithTsos(hbase, site, work, tsos);
            } finally {
                for (TsoProcess tso : tsos) {
                    tso.close();
                }
            }
        }
    }

    private FailoverResult runWithTsos(EmbeddedHBase hbase, Path site, Path work, List<TsoProcess> tsos)
            throws IOException, InterruptedException {
        TsoProcess active = launch(site, work, tsos);
        long epoch = await(active.activeEpoch(), START_TIMEOUT, active + " did not become active");
        TsoProcess standby = launch(site, work, tsos);
        await(standby.standingBy(), START_TIMEOUT, standby + " did not stand by");
        log.printf(Locale.ROOT, "failover: %s active (epoch %d), %s standing by%n", active.name(), epoch,
                standby.name());

        TransferLedger ledger = new TransferLedger(options.accounts());
        BankOptions bankOptions = BankOptions.defaults().withTableName(NAMESPACE + "_bank")
                .withAccounts(options.accounts()).withThreads(options.threads()).withDuration(Duration.ofDays(1));
        BankWorkload bank = new BankWorkload(hbase.connection(), clientConfig(), bankOptions).observe(ledger);
        AtomicBoolean stop = new AtomicBoolean();
        CompletableFuture<BankResult> bankRun = CompletableFuture.supplyAsync(() -> {
            try {
                return bank.run(progress -> { }, stop::get);
            } catch (IOException e) {
                throw new IllegalStateException("the bank workload failed: " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        });

        List<Long> takeovers = new ArrayList<>();
        List<Long> failovers = new ArrayList<>();
        String failure = null;
        try {
            for (int kill = 1; kill <= options.kills() && failure == null; kill++) {
                if (!commitsFlow(ledger, bankRun)) {
                    failure = "no transfer committed before kill " + kill;
                    break;
                }
                ledger.startRecording();
                long killed = System.nanoTime();
                active.killHard();
                long newEpoch;
                try {
                    newEpoch = await(standby.activeEpoch(), TAKEOVER_TIMEOUT, standby + " did not take over");
                } catch (IOException e) {
                    failure = "kill " + kill + ": " + e.getMessage();
                    break;
                }
                long takeover = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
                long firstCommit = ledger.firstCommitAbove(newEpoch, TAKEOVER_TIMEOUT.toNanos());
                if (firstCommit < 0) {
                    failure = "kill " + kill + ": no transfer committed on " + standby.name() + " within "
                            + TAKEOVER_TIMEOUT.toSeconds() + " s";
                    break;
                }
                long failover = TimeUnit.NANOSECONDS.toMillis(firstCommit - killed);
                takeovers.add(takeover);
                failovers.add(failover);
                log.printf(Locale.ROOT, "failover: kill %d of %d: killed %s, %s active after %d ms (epoch %d), first"
                        + " commit after %d ms%n", kill, options.kills(), active.name(), standby.name(), takeover,
                        newEpoch, failover);
                TsoProcess next = launch(site, work, tsos);
                await(next.standingBy(), START_TIMEOUT, next + " did not stand by");
                active = standby;
                standby = next;
            }
        } finally {
            stop.set(true);
        }
        BankResult bankResult = awaitBank(bankRun);
        String mismatch = ledger.mismatches(INITIAL_BALANCE, bankResult.finalBalances());
        return new FailoverResult(takeovers, failovers, bankResult, mismatch, failure);
    }

    /** Lets the workload run for the configured time, and checks that it commits. */
    private boolean commitsFlow(TransferLedger ledger, CompletableFuture<BankResult> bankRun)
            throws InterruptedException {
        long before = ledger.commits();
        Thread.sleep(options.between().toMillis());
        long deadline = System.nanoTime() + TAKEOVER_TIMEOUT.toNanos();
        while (ledger.commits() < before + 10 && System.nanoTime() < deadline && !bankRun.isDone()) {
            Thread.sleep(20);
        }
        return ledger.commits() >= before + 10;
    }

    private TsoProcess launch(Path site, Path work, List<TsoProcess> tsos) throws IOException {
        String name = "tso-" + (++launched);
        List<String> command = new ArrayList<>(options.tsoCommand());
        command.add("--hbase-site");
        command.add(site.toString());
        TsoProcess tso = TsoProcess.start(name, command, work.resolve(name + ".log"));
        tsos.add(tso);
        return tso;
    }

    /** The hbase-site.xml the TSO processes read: this HBase's ZooKeeper and the run's Tidemark settings. */
    private Path writeSiteFile(EmbeddedHBase hbase, Path file) throws IOException {
        Configuration site = new Configuration(false);
        site.set(HConstants.ZOOKEEPER_QUORUM, hbase.zookeeperQuorum());
        site.setInt(HConstants.ZOOKEEPER_CLIENT_PORT, hbase.zookeeperClientPort());
        site.set(TidemarkConfig.TSO_HOST.key(), "127.0.0.1");
        site.set(TidemarkConfig.TSO_PORT.key(), "0");
        site.set(TidemarkConfig.TSO_HTTP_PORT.key(), "0");
        site.set(TidemarkConfig.TSO_COMMIT_MODE.key(), options.commitMode().configName());
        site.set(TidemarkConfig.COMMIT_TABLE.key(), NAMESPACE + ":commits");
        site.set(TidemarkConfig.TIMESTAMP_TABLE.key(), NAMESPACE + ":timestamps");
        try (OutputStream out = Files.newOutputStream(file)) {
            site.writeXml(out);
        }
        return file;
    }

    /** Clients find the active TSO through the lease in ZooKeeper, as by default. */
    private static TidemarkConfig clientConfig() {
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        config.set(TidemarkConfig.COMMIT_TABLE, NAMESPACE + ":commits");
        config.set(TidemarkConfig.TIMESTAMP_TABLE, NAMESPACE + ":timestamps");
        return config;
    }

    private static <T> T await(CompletableFuture<T> future, Duration timeout, String failure) throws IOException,
            InterruptedException {
        try {
            return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IOException(failure + " within " + timeout.toSeconds() + " s", e);
        } catch (ExecutionException e) {
            throw new IOException(failure + ": " + e.getCause().getMessage(), e.getCause());
        }
    }

    private static BankResult awaitBank(CompletableFuture<BankResult> bankRun) throws IOException,
            InterruptedException {
        try {
            return bankRun.get(5, TimeUnit.MINUTES);
        } catch (ExecutionException e) {
            throw new IOException(e.getCause().getMessage(), e.getCause());
        } catch (TimeoutException e) {
            throw new IOException("the bank workload did not stop within 5 minutes", e);
        }
    }
}
