package io.tidemark.bench.breakdown;

import io.tidemark.bench.BenchTarget;
import io.tidemark.bench.MeasuredBenchmark;
import io.tidemark.bench.progress.ProgressListener;
import io.tidemark.bench.report.Charts;
import io.tidemark.bench.report.LatencySummary;
import io.tidemark.bench.report.ReportWriter;
import io.tidemark.bench.report.ResultTable;
import io.tidemark.bench.txn.ClosedLoop;
import io.tidemark.bench.txn.Operation;
import io.tidemark.bench.txn.TransactionShape;
import io.tidemark.bench.txn.TxEnvironment;
import io.tidemark.bench.txn.TxMeasurement;
import io.tidemark.bench.txn.TxMode;
import io.tidemark.bench.txn.ZipfKeys;
import org.knowm.xchart.CategoryChart;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * "bench breakdown", the paper's stacked bars: how the latency of a transaction splits into begin (BEGIN at the TSO),
 * data operations, and commit (COMMIT at the TSO, commit record, post-commit, each measured), for single-read,
 * single-write, read-modify-write, 5-operation and 10-operation transactions; raw HBase runs the same operations as
 * the baseline, back to back or each transaction's operations after a BEGIN round trip, and the report gives the
 * ratios over it.
 */
public final class BreakdownBenchmark extends MeasuredBenchmark<BreakdownOptions> {

    public static final String NAME = "breakdown";

    private static final String NAMESPACE = "tidemark_bench_breakdown";
    private static final double READ_FRACTION = 0.5;

    private final Map<String, TransactionShape> scenarios = new LinkedHashMap<>();

    public BreakdownBenchmark(BenchTarget target, BreakdownOptions options, PrintStream log,
                              ProgressListener progress) {
        super(target, options, log, progress, plannedSeconds(options));
        ZipfKeys keys = ZipfKeys.of(options.keyTheta(), options.data().keys());
        scenarios.put("read", random -> new Operation[] {Operation.read(keys.next(random))});
        scenarios.put("write", random -> new Operation[] {Operation.update(keys.next(random))});
        scenarios.put("read-modify-write", TransactionShape.readModifyWrite(keys));
        scenarios.put("5 ops", TransactionShape.mixed(5, keys, READ_FRACTION));
        scenarios.put("10 ops", TransactionShape.mixed(10, keys, READ_FRACTION));
    }

    public static long plannedSeconds(BreakdownOptions o) {
        return (long) o.modes().size() * 5 * o.run().secondsPerRun();
    }

    public List<BreakdownResult> run() throws IOException, InterruptedException {
        List<BreakdownResult> results = new ArrayList<>();
        for (TxMode mode : options.modes()) {
            try (TxEnvironment env = TxEnvironment.start(mode, target, NAMESPACE, "bench_breakdown",
                    options.data(), options.postCommit())) {
                log.printf(Locale.ROOT, "breakdown: %s: preloading %d rows%n", mode.label(), options.data().keys());
                env.driver().preload();
                for (Map.Entry<String, TransactionShape> s : scenarios.entrySet()) {
                    clock.phase(mode.label() + ", " + s.getKey());
                    TxMeasurement m = ClosedLoop.measure(env.driver(), options.data().valueBytes(),
                            List.of(new ClosedLoop.Group(s.getKey(), options.threads(), s.getValue())), clock,
                            options.run().perRun()).get(0);
                    results.add(new BreakdownResult(mode, s.getKey(), m));
                }
            }
        }
        writeReport(results);
        return results;
    }

    /** The results as a table (also what the command line prints). */
    public static ResultTable table(List<BreakdownResult> results) {
        ResultTable table = new ResultTable("mode", "transaction", "tx_per_s", "transactions", "aborts", "errors",
                "begin_ms", "operations_ms", "commit_ms", "commit_tso_ms", "commit_record_ms", "post_commit_ms",
                "mean_ms", "p50_ms", "p99_ms");
        for (BreakdownResult r : results) {
            TxMeasurement m = r.measurement();
            table.addRow(r.mode().label(), r.scenario(), String.format(Locale.ROOT, "%.1f", m.commitsPerSecond()),
                    m.commits(), m.aborts(), m.errors(), LatencySummary.ms(m.meanBeginMs()),
                    LatencySummary.ms(m.meanOperationsMs()), LatencySummary.ms(m.meanCommitMs()),
                    LatencySummary.ms(m.meanCommitTsoMs()), LatencySummary.ms(m.meanCommitRecordMs()),
                    LatencySummary.ms(m.meanPostCommitMs()), LatencySummary.ms(m.latency().meanMs()),
                    LatencySummary.ms(m.latency().p50Ms()), LatencySummary.ms(m.latency().p99Ms()));
        }
        return table;
    }

    /**
     * Each transactional mode's kinds of transaction over the same kind in each raw mode of the run (mean and p50), or
     * empty when the run has no raw or no transactional mode.
     */
    public static Optional<ResultTable> ratios(List<BreakdownResult> results) {
        return BaselineRatios.of(results);
    }

    private void writeReport(List<BreakdownResult> results) throws IOException {
        StringBuilder notes = new StringBuilder(String.format(Locale.ROOT,
                "%d client thread(s), closed loop, one kind of transaction at a time; keys Zipf theta %.2f over %d "
                        + "preloaded rows, %d-byte values; the 5- and 10-operation transactions mix reads and "
                        + "updates 50/50. Mean time per phase of committed transactions: begin = BEGIN at the TSO; "
                        + "operations = the gets and puts (a read also resolves tentative cells it meets); commit = "
                        + "COMMIT at the TSO (skipped by read-only transactions), the commit record (generic mode), "
                        + "shadow cells and the commit record's removal (post-commit, here %s). The commit's split "
                        + "as the TransactionManager reports it: commit_tso = COMMIT round trip; commit_record = the "
                        + "client's commit record through the group-commit writer; post_commit = shadow cells and "
                        + "record removal (sync) or the hand-off to the post-commit threads (async); the rest of "
                        + "commit is the client's own work between them. Raw HBase runs the same gets and puts "
                        + "without a transaction. %s; HBase, TSO and clients share "
                        + "one JVM.%n%n",
                options.threads(), options.keyTheta(), options.data().keys(), options.data().valueBytes(),
                options.postCommit().configName(), options.run().timing("run")));
        ratios(results).ifPresent(ratios -> notes.append("Over raw HBase doing the same operations in this run "
                + "(raw: back to back; raw-after-begin: each transaction's operations right after a BEGIN round trip, "
                + "which the raw latency leaves out):\n\n").append(ratios.toMarkdown()).append('\n'));
        for (TxMode mode : options.modes()) {
            String file = Charts.save(chart(results, mode), options.run().outputFolder(), "breakdown-" + mode.label()
                    + ".png");
            notes.append(ReportWriter.image("latency breakdown, " + mode.label(), file));
        }
        for (BreakdownResult r : results) {
            if (r.measurement().firstError() != null) {
                notes.append(String.format(Locale.ROOT, "First error in %s, %s: %s%n%n", r.mode().label(),
                        r.scenario(), r.measurement().firstError()));
            }
        }
        writeResults("Latency breakdown: begin, operations, commit", table(results), notes);
    }

    private CategoryChart chart(List<BreakdownResult> results, TxMode mode) {
        CategoryChart chart = Charts.bars("Latency breakdown, " + mode.label() + " mode", "transaction",
                "mean latency (ms)", true);
        List<BreakdownResult> ofMode = results.stream().filter(r -> r.mode() == mode).toList();
        List<String> names = ofMode.stream().map(BreakdownResult::scenario).toList();
        chart.addSeries("begin", names, ofMode.stream().map(r -> (Number) r.measurement().meanBeginMs()).toList());
        chart.addSeries("operations", names,
                ofMode.stream().map(r -> (Number) r.measurement().meanOperationsMs()).toList());
        chart.addSeries("commit: TSO", names,
                ofMode.stream().map(r -> (Number) r.measurement().meanCommitTsoMs()).toList());
        chart.addSeries("commit: record", names,
                ofMode.stream().map(r -> (Number) r.measurement().meanCommitRecordMs()).toList());
        chart.addSeries("commit: post-commit", names,
                ofMode.stream().map(r -> (Number) r.measurement().meanPostCommitMs()).toList());
        chart.addSeries("commit: other", names, ofMode.stream().map(r -> (Number) Math.max(0,
                r.measurement().meanCommitMs() - r.measurement().meanCommitTsoMs()
                        - r.measurement().meanCommitRecordMs() - r.measurement().meanPostCommitMs())).toList());
        return chart;
    }
}
