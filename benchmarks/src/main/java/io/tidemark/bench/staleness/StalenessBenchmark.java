package io.tidemark.bench.staleness;

import io.tidemark.bench.BenchTarget;
import io.tidemark.bench.MeasuredBenchmark;
import io.tidemark.bench.progress.ClientThreads;
import io.tidemark.bench.progress.ProgressListener;
import io.tidemark.bench.report.Charts;
import io.tidemark.bench.report.LatencySummary;
import io.tidemark.bench.report.ReportWriter;
import io.tidemark.bench.report.ResultTable;
import io.tidemark.bench.txn.ClosedLoop;
import io.tidemark.bench.txn.DataTable;
import io.tidemark.bench.txn.Operation;
import io.tidemark.bench.txn.TxEnvironment;
import io.tidemark.bench.txn.TxMode;
import io.tidemark.bench.txn.ZipfKeys;
import io.tidemark.client.Staleness;
import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionManager;
import org.HdrHistogram.Histogram;
import org.apache.hadoop.hbase.client.Get;
import org.knowm.xchart.XYChart;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * "bench staleness": latency of read-only transactions of 1, 5 and 10 rows begun at the TSO, against read-only
 * transactions at bounded staleness ({@code beginReadOnly(Staleness.atMost(bound))}), while writer threads commit
 * single-row updates; reports latency percentiles, the observed snapshot age, and CDF plots of both.
 */
public final class StalenessBenchmark extends MeasuredBenchmark<StalenessOptions> {

    public static final String NAME = "staleness";
    /** The label of the run whose transactions all begin at the TSO. */
    static final String AT_TSO = "begin";

    private static final String NAMESPACE = "tidemark_bench_staleness";
    private static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(10);

    public StalenessBenchmark(BenchTarget target, StalenessOptions options, PrintStream log,
                              ProgressListener progress) {
        super(target, options, log, progress, plannedSeconds(options));
    }

    public static long plannedSeconds(StalenessOptions o) {
        return (long) o.keysPerTransaction().size() * (o.bounds().size() + 1)
                * o.run().secondsPerRun();
    }

    public List<StalenessResult> run() throws IOException, InterruptedException {
        List<StalenessResult> results = new ArrayList<>();
        try (TxEnvironment env = TxEnvironment.start(TxMode.GENERIC, target, NAMESPACE, "bench_staleness",
                options.data())) {
            log.printf(Locale.ROOT, "staleness: preloading %d rows%n", options.data().keys());
            env.driver().preload();
            ZipfKeys rows = ZipfKeys.of(options.keyTheta(), options.data().keys());
            ClosedLoop writers = options.writers() == 0 ? null : ClosedLoop.start(env.driver(),
                    options.data().valueBytes(), List.of(new ClosedLoop.Group("writers", options.writers(),
                            random -> new Operation[] {Operation.update(rows.next(random))})));
            try (TransactionManager tm = TransactionManager.builder(target.connection())
                    .config(env.clientConfig()).build()) {
                for (int keys : options.keysPerTransaction()) {
                    results.add(measure(tm, env, rows, keys, null));
                    for (Duration bound : options.bounds()) {
                        results.add(measure(tm, env, rows, keys, bound));
                    }
                }
            } finally {
                if (writers != null) {
                    writers.close();
                }
            }
        }
        writeReport(results);
        return results;
    }

    /** One run of the reader threads; {@code bound} null begins every transaction at the TSO. */
    private StalenessResult measure(TransactionManager tm, TxEnvironment env, ZipfKeys rows, int keys,
                                    Duration bound)
            throws InterruptedException {
        String label = label(bound);
        clock.phase(keys + " key(s), " + label);
        Staleness staleness = bound == null ? Staleness.none() : Staleness.atMost(bound);
        Histogram latency = new Histogram(HIGHEST_MICROS, 3);
        Histogram age = new Histogram(HIGHEST_MICROS, 3);
        AtomicLong transactions = new AtomicLong();
        AtomicLong tsoBegins = new AtomicLong();
        AtomicReference<Throwable> firstError = new AtomicReference<>();
        ClientThreads readers = new ClientThreads();
        for (int i = 0; i < options.readers(); i++) {
            readers.add("bench-staleness-reader-" + i, reader -> {
                SplittableRandom random = new SplittableRandom();
                long lastStart = -1;
                try (TTable table = new TTable(target.connection(), env.tableName())) {
                    while (reader.running()) {
                        long started = System.nanoTime();
                        Transaction tx = bound == null ? tm.begin() : tm.beginReadOnly(staleness);
                        for (int k = 0; k < keys; k++) {
                            table.get(tx, new Get(DataTable.row(rows.next(random)))
                                    .addColumn(DataTable.FAMILY, DataTable.QUALIFIER));
                        }
                        tm.commit(tx);
                        long micros = (System.nanoTime() - started) / 1000;
                        if (reader.measuring()) {
                            synchronized (latency) {
                                latency.recordValue(Math.min(micros, HIGHEST_MICROS));
                                age.recordValue(Math.min(tx.snapshotAgeAtBegin().toNanos() / 1000,
                                        HIGHEST_MICROS));
                            }
                            transactions.incrementAndGet();
                            // A timestamp reused by this thread cannot have come from a new BEGIN.
                            if (tx.startTimestamp() != lastStart) {
                                tsoBegins.incrementAndGet();
                            }
                        }
                        lastStart = tx.startTimestamp();
                        reader.completed();
                    }
                } catch (IOException | RuntimeException e) {
                    firstError.compareAndSet(null, e);
                }
            });
        }
        double seconds = readers.measure(clock, options.run().perRun(), firstError::get);
        return new StalenessResult(keys, label, transactions.get(), tsoBegins.get(), seconds, latency, age,
                firstError.get());
    }

    static String label(Duration bound) {
        if (bound == null) {
            return AT_TSO;
        }
        return bound.toMillis() >= 1000 && bound.toMillis() % 1000 == 0 ? "<= " + bound.toSeconds() + " s"
                : "<= " + bound.toMillis() + " ms";
    }

    /** The results as a table (also what the command line prints). */
    public static ResultTable table(List<StalenessResult> results) {
        ResultTable table = new ResultTable("keys", "staleness", "tx_per_s", "transactions", "tso_begins_at_most",
                "p50_ms", "p90_ms", "p99_ms", "mean_ms", "age_p50_ms", "age_p99_ms", "age_max_ms");
        for (StalenessResult r : results) {
            table.addRow(r.keys(), r.bound(), String.format(Locale.ROOT, "%.1f", r.transactions() / r.seconds()),
                    r.transactions(), r.tsoBegins(), ms(r.latencyMicros(), 50), ms(r.latencyMicros(), 90),
                    ms(r.latencyMicros(), 99), LatencySummary.ms(r.latencyMicros().getMean() / 1000.0),
                    ms(r.snapshotAgeMicros(), 50), ms(r.snapshotAgeMicros(), 99),
                    LatencySummary.ms(r.snapshotAgeMicros().getMaxValue() / 1000.0));
        }
        return table;
    }

    private static String ms(Histogram micros, double percentile) {
        return LatencySummary.ms(micros.getValueAtPercentile(percentile) / 1000.0);
    }

    private void writeReport(List<StalenessResult> results) throws IOException {
        StringBuilder notes = new StringBuilder(String.format(Locale.ROOT,
                "%d reader thread(s) sharing one TransactionManager run read-only transactions of each size back "
                        + "to back: \"%s\" begins each at the TSO (a BEGIN round trip); \"<= d\" calls "
                        + "beginReadOnly(Staleness.atMost(d)), which reuses the newest safe snapshot timestamp the "
                        + "manager obtained within d (here: the start of an earlier read-only transaction) and asks "
                        + "the TSO only when it has none. Meanwhile %d writer thread(s) commit single-row updates "
                        + "through their own manager. Rows (Zipf theta %.2f) come from %d preloaded rows of %d bytes. "
                        + "Snapshot age = how long before the transaction began the request that produced its "
                        + "timestamp was sent: the most a transaction can lag behind real time. tso_begins_at_most "
                        + "counts timestamps a reader thread had not used just before (an upper bound on BEGINs). "
                        + "%s; HBase, TSO and clients share one JVM.%n%n",
                options.readers(), AT_TSO, options.writers(), options.keyTheta(), options.data().keys(), options.data().valueBytes(),
                options.run().timing("run")));
        for (int keys : options.keysPerTransaction()) {
            String file = Charts.save(cdf(results, keys, true), options.run().outputFolder(),
                    "latency-cdf-" + keys + "-keys.png");
            notes.append(ReportWriter.image("latency CDF, " + keys + " key(s)", file));
        }
        int firstKeys = options.keysPerTransaction().get(0);
        String ageFile = Charts.save(cdf(results, firstKeys, false), options.run().outputFolder(),
                "snapshot-age-cdf.png");
        notes.append(ReportWriter.image("snapshot age CDF", ageFile));
        for (StalenessResult r : results) {
            if (r.firstError() != null) {
                notes.append(String.format(Locale.ROOT, "First error, %d key(s), %s: %s%n%n", r.keys(), r.bound(),
                        r.firstError()));
            }
        }
        writeResults("Read-only transactions at bounded staleness", table(results), notes);
    }

    /** Cumulative distribution of latency ({@code latency} true) or snapshot age, one line per staleness. */
    private static XYChart cdf(List<StalenessResult> results, int keys, boolean latency) {
        XYChart chart = Charts.lines(latency ? "Read-only transactions of " + keys + " key(s): latency CDF"
                        : "Snapshot age at begin (" + keys + " key(s))", latency ? "latency (ms)" : "snapshot age (ms)",
                "fraction of transactions");
        chart.getStyler().setMarkerSize(0);
        for (StalenessResult r : results) {
            Histogram h = latency ? r.latencyMicros() : r.snapshotAgeMicros();
            if (r.keys() != keys || h.getTotalCount() == 0) {
                continue;
            }
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (int p = 0; p <= 100; p++) {
                double percentile = p == 100 ? 99.9 : p;
                x.add(h.getValueAtPercentile(percentile) / 1000.0);
                y.add(percentile / 100.0);
            }
            chart.addSeries(r.bound(), x, y);
        }
        return chart;
    }
}
