package io.tidemark.bench.latency;

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
import org.knowm.xchart.CategoryChart;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * "bench latency-by-size": end-to-end latency (begin to the end of commit) of transactions of 1, 5 and 10 operations
 * at a light load, in each mode: Tidemark generic (low-latency TSO), Tidemark batched, Tidemark fast path (size 1
 * only; see {@link #FAST_PATH_NOTE}), and raw HBase.
 */
public final class LatencyBySizeBenchmark extends MeasuredBenchmark<LatencyBySizeOptions> {

    public static final String NAME = "latency-by-size";
    /** What the fast-path mode measures, for the help text and the summary. */
    public static final String FAST_PATH_NOTE = "fastpath: a transaction of size 1 is one fast-path operation inside "
            + "the region server (read = get, update = put; no TSO round trip); larger sizes run as generic "
            + "transactions (low-latency TSO) on the same table, so only its size-1 rows measure the fast path.";

    private static final String NAMESPACE = "tidemark_bench_size";
    private static final double READ_FRACTION = 0.5;

    public LatencyBySizeBenchmark(BenchTarget target, LatencyBySizeOptions options, PrintStream log,
                                  ProgressListener progress) {
        super(target, options, log, progress, plannedSeconds(options));
    }

    /** Seconds of warm-up and measurement the options add up to (set-up and preloading come on top). */
    public static long plannedSeconds(LatencyBySizeOptions o) {
        return (long) o.modes().size() * o.sizes().size() * o.run().secondsPerRun();
    }

    public List<SizeResult> run() throws IOException, InterruptedException {
        ZipfKeys keys = ZipfKeys.of(options.keyTheta(), options.data().keys());
        List<SizeResult> results = new ArrayList<>();
        for (TxMode mode : options.modes()) {
            try (TxEnvironment env = TxEnvironment.start(mode, target, NAMESPACE, "bench_size", options.data())) {
                log.printf(Locale.ROOT, "latency-by-size: %s: preloading %d rows%n", mode.label(),
                        options.data().keys());
                env.driver().preload();
                for (int size : options.sizes()) {
                    clock.phase(mode.label() + ", size " + size);
                    ClosedLoop.Group group = new ClosedLoop.Group("size-" + size, options.threads(),
                            TransactionShape.mixed(size, keys, READ_FRACTION));
                    TxMeasurement m = ClosedLoop.measure(env.driver(), options.data().valueBytes(), List.of(group),
                            clock, options.run().perRun()).get(0);
                    results.add(new SizeResult(mode, size, m));
                }
            }
        }
        writeReport(results);
        return results;
    }

    /** The results as a table (also what the command line prints). */
    public static ResultTable table(List<SizeResult> results) {
        ResultTable table = new ResultTable("mode", "size", "tx_per_s", "transactions", "aborts", "errors",
                "mean_ms", "p50_ms", "p99_ms");
        for (SizeResult r : results) {
            TxMeasurement m = r.measurement();
            table.addRow(r.mode().label(), r.size(), String.format(Locale.ROOT, "%.1f", m.commitsPerSecond()),
                    m.commits(), m.aborts(), m.errors(), LatencySummary.ms(m.latency().meanMs()),
                    LatencySummary.ms(m.latency().p50Ms()), LatencySummary.ms(m.latency().p99Ms()));
        }
        return table;
    }

    private void writeReport(List<SizeResult> results) throws IOException {
        String mean = Charts.save(chart(results, "Mean latency by transaction size", s -> s.meanMs()),
                options.run().outputFolder(), "latency-by-size-mean.png");
        String p99 = Charts.save(chart(results, "p99 latency by transaction size", s -> s.p99Ms()),
                options.run().outputFolder(), "latency-by-size-p99.png");
        StringBuilder notes = new StringBuilder(String.format(Locale.ROOT,
                "%d client thread(s) per run, closed loop (a light load). A transaction of size k runs k "
                        + "operations, each a read or an update (50/50) of one of %d preloaded rows, keys drawn "
                        + "with Zipf theta %.2f; updates write %d-byte values. Latency runs from begin to the end of "
                        + "commit, committed transactions only; raw HBase runs the same gets and puts without a "
                        + "transaction. %s; HBase, TSO and clients share one "
                        + "JVM.%n%n%s%n%n",
                options.threads(), options.data().keys(), options.keyTheta(), options.data().valueBytes(),
                options.run().timing("run"), FAST_PATH_NOTE));
        notes.append(ReportWriter.image("mean latency by size", mean));
        notes.append(ReportWriter.image("p99 latency by size", p99));
        for (SizeResult r : results) {
            if (r.measurement().firstError() != null) {
                notes.append(String.format(Locale.ROOT, "First error in %s, size %d: %s%n%n", r.mode().label(),
                        r.size(), r.measurement().firstError()));
            }
        }
        writeResults("Latency by transaction size", table(results), notes);
    }

    private CategoryChart chart(List<SizeResult> results, String title, ToDoubleFunction<LatencySummary> value) {
        CategoryChart chart = Charts.bars(title, "operations per transaction", "latency (ms)", false);
        List<String> sizes = options.sizes().stream().map(String::valueOf).toList();
        for (TxMode mode : options.modes()) {
            List<Double> values = new ArrayList<>();
            for (int size : options.sizes()) {
                values.add(results.stream().filter(r -> r.mode() == mode && r.size() == size)
                        .mapToDouble(r -> value.applyAsDouble(r.measurement().latency())).findFirst().orElse(0));
            }
            chart.addSeries(mode.label(), sizes, values);
        }
        return chart;
    }
}
