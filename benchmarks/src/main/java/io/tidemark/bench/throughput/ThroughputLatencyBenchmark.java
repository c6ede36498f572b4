package io.tidemark.bench.throughput;

import io.tidemark.bench.BenchTarget;
import io.tidemark.bench.MeasuredBenchmark;
import io.tidemark.bench.progress.CompletedWork;
import io.tidemark.bench.progress.MeasuredRun;
import io.tidemark.bench.progress.ProgressListener;
import io.tidemark.bench.progress.WarmUp;
import io.tidemark.bench.report.Charts;
import io.tidemark.bench.report.LatencySummary;
import io.tidemark.bench.report.ReportWriter;
import io.tidemark.bench.report.ResultTable;
import io.tidemark.bench.tso.BackgroundLoad;
import io.tidemark.bench.tso.BackgroundRecords;
import io.tidemark.bench.txn.ClosedLoop;
import io.tidemark.bench.txn.TransactionShape;
import io.tidemark.bench.txn.TxEnvironment;
import io.tidemark.bench.txn.TxMeasurement;
import io.tidemark.bench.txn.TxMode;
import io.tidemark.bench.txn.ZipfKeys;
import io.tidemark.protocol.CommitMode;
import org.knowm.xchart.XYChart;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * "bench throughput-latency", the paper's main figure: end-to-end latency of transactions of 1, 5 and 10 operations
 * while the TSO carries a background load of BEGIN/COMMIT pairs, swept from none to saturation, per commit mode. The
 * saturation step runs first; the partial loads are fractions of the rate it reached.
 */
public final class ThroughputLatencyBenchmark extends MeasuredBenchmark<ThroughputLatencyOptions> {

    public static final String NAME = "throughput-latency";

    private static final String NAMESPACE = "tidemark_bench_tl";
    private static final double READ_FRACTION = 0.5;
    private static final String NO_LOAD = "none";
    private static final String SATURATED = "saturated";

    public ThroughputLatencyBenchmark(BenchTarget target, ThroughputLatencyOptions options, PrintStream log,
                                      ProgressListener progress) {
        super(target, options, log, progress, plannedSeconds(options));
    }

    public static long plannedSeconds(ThroughputLatencyOptions o) {
        return (long) o.modes().size() * o.steps() * o.run().secondsPerRun();
    }

    public List<LoadPoint> run() throws IOException, InterruptedException {
        List<LoadPoint> points = new ArrayList<>();
        for (TxMode mode : options.modes()) {
            try (TxEnvironment env = TxEnvironment.start(mode, target, NAMESPACE, "bench_tl", options.data())) {
                log.printf(Locale.ROOT, "throughput-latency: %s: preloading %d rows%n", mode.label(),
                        options.data().keys());
                env.driver().preload();
                // Saturation first: the partial loads are fractions of it, and it also warms up the JIT and the
                // freshly preloaded table before the unloaded step, which would otherwise pay for both.
                LoadPoint saturated = step(env, mode, SATURATED, 0);
                double saturation = saturated.background().pairsPerSecond();
                points.add(step(env, mode, NO_LOAD, 0));
                for (double fraction : options.loadFractions()) {
                    long rate = Math.max(1, Math.round(saturation * fraction));
                    points.add(step(env, mode, Math.round(fraction * 100) + "%", rate));
                }
                points.add(saturated);
            }
        }
        writeReport(points);
        return points;
    }

    private LoadPoint step(TxEnvironment env, TxMode mode, String load, long rate) throws InterruptedException {
        clock.phase(mode.label() + ", background " + load + (rate > 0 ? " (" + rate + " pairs/s)" : ""));
        BackgroundLoad background = startBackground(env, mode, load, rate);
        ClosedLoop foreground = ClosedLoop.start(env.driver(), options.data().valueBytes(), groups());
        List<CompletedWork> clients = new ArrayList<>(foreground.clients());
        if (background != null) {
            clients.addAll(background.clients());
        }
        try {
            return MeasuredRun.measure(clock, options.run().perRun(), clients,
                    new MeasuredRun.Recording<LoadPoint>() {
                        @Override
                        public void reset(WarmUp.Outcome warmUp) {
                            foreground.reset(warmUp);
                            if (background != null) {
                                background.reset();
                            }
                        }

                        @Override
                        public LoadPoint read(double seconds) {
                            return new LoadPoint(mode, load, rate, background == null ? null
                                    : background.snapshot(seconds), foreground.read(seconds));
                        }

                        @Override
                        public String firstError() {
                            String first = foreground.firstError();
                            return first != null || background == null ? first : background.firstError();
                        }
                    });
        } finally {
            foreground.close();
            if (background != null) {
                background.close();
            }
        }
    }

    private BackgroundLoad startBackground(TxEnvironment env, TxMode mode, String load, long rate) {
        if (load.equals(NO_LOAD)) {
            return null;
        }
        if (load.equals(SATURATED)) {
            return BackgroundLoad.saturating(env.clientConfig(), target.connection(), clientWritesRecords(mode),
                    options.connections(), options.window());
        }
        return BackgroundLoad.atRate(env.clientConfig(), target.connection(), clientWritesRecords(mode),
                options.connections(), rate);
    }

    /** A low-latency TSO leaves the commit records to its clients; a batched one writes them itself. */
    private boolean clientWritesRecords(TxMode mode) {
        return options.background() == BackgroundRecords.WITH_COMMIT_RECORDS
                && mode.commitMode() == CommitMode.LOW_LATENCY;
    }

    private List<ClosedLoop.Group> groups() {
        ZipfKeys keys = ZipfKeys.of(options.keyTheta(), options.data().keys());
        List<ClosedLoop.Group> groups = new ArrayList<>();
        for (int size : options.sizes()) {
            groups.add(new ClosedLoop.Group("size-" + size, options.threadsPerSize(),
                    TransactionShape.mixed(size, keys, READ_FRACTION)));
        }
        return groups;
    }

    /** The highest total TSO throughput any step of {@code mode} reached (pairs/s). */
    public static double saturationThroughput(List<LoadPoint> points, TxMode mode) {
        return points.stream().filter(p -> p.mode() == mode).mapToDouble(LoadPoint::tsoPairsPerSecond).max()
                .orElse(0);
    }

    /** The results as a table, one row per mode, load step and transaction size. */
    public static ResultTable table(List<LoadPoint> points) {
        ResultTable table = new ResultTable("mode", "background_load", "target_pairs_per_s", "tso_pairs_per_s",
                "background_errors", "size", "tx_per_s", "aborts", "errors", "mean_ms", "p50_ms", "p99_ms");
        for (LoadPoint p : points) {
            for (TxMeasurement m : p.foreground()) {
                table.addRow(p.mode().label(), p.load(), p.targetRate(),
                        String.format(Locale.ROOT, "%.0f", p.tsoPairsPerSecond()),
                        p.background() == null ? 0 : p.background().errors(), m.label().replace("size-", ""),
                        String.format(Locale.ROOT, "%.1f", m.commitsPerSecond()), m.aborts(), m.errors(),
                        LatencySummary.ms(m.latency().meanMs()), LatencySummary.ms(m.latency().p50Ms()),
                        LatencySummary.ms(m.latency().p99Ms()));
            }
        }
        return table;
    }

    private void writeReport(List<LoadPoint> points) throws IOException {
        StringBuilder notes = new StringBuilder(String.format(Locale.ROOT,
                "Foreground: %d client thread(s) per transaction size, closed loop; each operation reads or "
                        + "updates (50/50) one of %d preloaded rows, keys Zipf theta %.2f, %d-byte values. Latency "
                        + "runs from begin to the end of commit (committed transactions only).%n%n"
                        + "Background: BEGIN/COMMIT pairs (write sets of two random cell ids) on %d TSO connections, "
                        + "sent open loop at a fraction of the saturation rate, or keeping %d pairs outstanding per "
                        + "connection (\"saturated\", measured first). %s Total TSO throughput = background pairs "
                        + "+ foreground transactions per second. %s; HBase, TSO, "
                        + "load generator and clients share one JVM on this machine, so at saturation the "
                        + "foreground also competes for CPU.%n%n",
                options.threadsPerSize(), options.data().keys(), options.keyTheta(), options.data().valueBytes(),
                options.connections(), options.window(), backgroundNote(), options.run().timing("step")));
        notes.append("| mode | saturation throughput (pairs/s) |\n|---|---|\n");
        for (TxMode mode : options.modes()) {
            notes.append(String.format(Locale.ROOT, "| %s | %.0f |%n", mode.label(),
                    saturationThroughput(points, mode)));
        }
        notes.append('\n');
        for (int size : options.sizes()) {
            String file = Charts.save(chart(points, size), options.run().outputFolder(),
                    "throughput-latency-size-" + size + ".png");
            notes.append(ReportWriter.image("latency vs TSO throughput, size " + size, file));
        }
        for (LoadPoint p : points) {
            for (TxMeasurement m : p.foreground()) {
                if (m.firstError() != null) {
                    notes.append(String.format(Locale.ROOT, "First error in %s, load %s, %s: %s%n%n",
                            p.mode().label(), p.load(), m.label(), m.firstError()));
                }
            }
            if (p.background() != null && p.background().firstError() != null) {
                notes.append(String.format(Locale.ROOT, "First background error in %s, load %s: %s%n%n",
                        p.mode().label(), p.load(), p.background().firstError()));
            }
        }
        writeResults("Latency vs TSO throughput", table(points), notes);
    }

    private String backgroundNote() {
        String generic = options.background() == BackgroundRecords.WITH_COMMIT_RECORDS
                ? "In generic (low-latency) mode each background pair writes its commit record through a group commit "
                        + "of its own, as the clients of a real application do (--background with-commit-records)."
                : "In generic (low-latency) mode the background pairs write no commit records (--background tso-only):"
                        + " the load is on the TSO alone, which overstates what the whole system sustains.";
        return generic + " In batched mode the TSO writes one for each pair, as it does for every commit.";
    }

    private XYChart chart(List<LoadPoint> points, int size) {
        XYChart chart = Charts.lines("Transactions of size " + size, "TSO throughput (pairs/s)", "mean latency (ms)");
        String label = "size-" + size;
        for (TxMode mode : options.modes()) {
            List<LoadPoint> ofMode = points.stream().filter(p -> p.mode() == mode)
                    .sorted(Comparator.comparingDouble(LoadPoint::tsoPairsPerSecond)).toList();
            double[] x = ofMode.stream().mapToDouble(LoadPoint::tsoPairsPerSecond).toArray();
            double[] y = ofMode.stream().mapToDouble(p -> p.foreground().stream()
                    .filter(m -> m.label().equals(label)).findFirst().map(m -> m.latency().meanMs()).orElse(0.0))
                    .toArray();
            chart.addSeries(mode.label(), x, y);
        }
        return chart;
    }
}
