package io.tidemark.bench.contention;

import io.tidemark.bench.BenchTarget;
import io.tidemark.bench.MeasuredBenchmark;
import io.tidemark.bench.progress.ProgressListener;
import io.tidemark.bench.report.Charts;
import io.tidemark.bench.report.LatencySummary;
import io.tidemark.bench.report.ReportWriter;
import io.tidemark.bench.report.ResultTable;
import io.tidemark.bench.txn.ClosedLoop;
import io.tidemark.bench.txn.TransactionShape;
import io.tidemark.bench.txn.TxEnvironment;
import io.tidemark.bench.txn.TxMeasurement;
import io.tidemark.bench.txn.TxMode;
import io.tidemark.bench.txn.ZipfKeys;
import org.knowm.xchart.XYChart;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * "bench contention": abort rate and committed throughput of fixed-size transactions (generic mode) as the key
 * popularity gets more skewed, i.e. as more transactions write the same hot keys at the same time.
 */
public final class ContentionBenchmark extends MeasuredBenchmark<ContentionOptions> {

    public static final String NAME = "contention";

    private static final String NAMESPACE = "tidemark_bench_contention";
    private static final double READ_FRACTION = 0.5;

    public ContentionBenchmark(BenchTarget target, ContentionOptions options, PrintStream log,
                               ProgressListener progress) {
        super(target, options, log, progress, plannedSeconds(options));
    }

    public static long plannedSeconds(ContentionOptions o) {
        return (long) o.thetas().size() * o.run().secondsPerRun();
    }

    public List<ContentionResult> run() throws IOException, InterruptedException {
        List<ContentionResult> results = new ArrayList<>();
        try (TxEnvironment env = TxEnvironment.start(TxMode.GENERIC, target, NAMESPACE, "bench_contention",
                options.data())) {
            log.printf(Locale.ROOT, "contention: preloading %d rows%n", options.data().keys());
            env.driver().preload();
            for (double theta : options.thetas()) {
                clock.phase(String.format(Locale.ROOT, "theta %.2f", theta));
                TransactionShape shape = TransactionShape.mixed(options.size(),
                        ZipfKeys.of(theta, options.data().keys()), READ_FRACTION);
                TxMeasurement m = ClosedLoop.measure(env.driver(), options.data().valueBytes(),
                        List.of(new ClosedLoop.Group("theta-" + theta, options.threads(), shape)), clock,
                        options.run().perRun()).get(0);
                results.add(new ContentionResult(theta, m));
            }
        }
        writeReport(results);
        return results;
    }

    /** The results as a table (also what the command line prints). */
    public static ResultTable table(List<ContentionResult> results) {
        ResultTable table = new ResultTable("theta", "tx_per_s", "commits", "aborts", "abort_rate_pct", "errors",
                "mean_ms", "p99_ms");
        for (ContentionResult r : results) {
            TxMeasurement m = r.measurement();
            table.addRow(String.format(Locale.ROOT, "%.2f", r.theta()),
                    String.format(Locale.ROOT, "%.1f", m.commitsPerSecond()), m.commits(), m.aborts(),
                    String.format(Locale.ROOT, "%.1f", 100 * m.abortRate()), m.errors(),
                    LatencySummary.ms(m.latency().meanMs()), LatencySummary.ms(m.latency().p99Ms()));
        }
        return table;
    }

    private void writeReport(List<ContentionResult> results) throws IOException {
        double[] thetas = results.stream().mapToDouble(ContentionResult::theta).toArray();
        XYChart aborts = Charts.lines("Abort rate vs key skew", "Zipf theta", "aborted transactions (%)");
        aborts.addSeries("generic, " + options.size() + " ops", thetas,
                results.stream().mapToDouble(r -> 100 * r.measurement().abortRate()).toArray());
        XYChart throughput = Charts.lines("Committed throughput vs key skew", "Zipf theta",
                "committed transactions/s");
        throughput.addSeries("generic, " + options.size() + " ops", thetas,
                results.stream().mapToDouble(r -> r.measurement().commitsPerSecond()).toArray());
        StringBuilder notes = new StringBuilder(String.format(Locale.ROOT,
                "Generic (low-latency) mode. %d client threads, closed loop; each transaction runs %d operations, "
                        + "each a read or an update (50/50) of one of %d preloaded rows, keys drawn with the Zipf "
                        + "theta of the row (the hot keys are spread over the table); %d-byte values. An abort is a "
                        + "write-write conflict found by the TSO, or a commit lost to a reader's invalidation; the "
                        + "abort rate is aborts / (commits + aborts). Aborted transactions are not retried. %s; "
                        + "HBase, TSO and clients share one JVM.%n%n",
                options.threads(), options.size(), options.data().keys(), options.data().valueBytes(),
                options.run().timing("skew")));
        notes.append(ReportWriter.image("abort rate vs skew",
                Charts.save(aborts, options.run().outputFolder(), "contention-abort-rate.png")));
        notes.append(ReportWriter.image("throughput vs skew",
                Charts.save(throughput, options.run().outputFolder(), "contention-throughput.png")));
        for (ContentionResult r : results) {
            if (r.measurement().firstError() != null) {
                notes.append(String.format(Locale.ROOT, "First error at theta %.2f: %s%n%n", r.theta(),
                        r.measurement().firstError()));
            }
        }
        writeResults("Contention: aborts vs key skew", table(results), notes);
    }
}
