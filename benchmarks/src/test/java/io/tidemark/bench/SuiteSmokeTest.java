package io.tidemark.bench;

import io.tidemark.bench.breakdown.BreakdownBenchmark;
import io.tidemark.bench.breakdown.BreakdownOptions;
import io.tidemark.bench.breakdown.BreakdownResult;
import io.tidemark.bench.contention.ContentionBenchmark;
import io.tidemark.bench.contention.ContentionOptions;
import io.tidemark.bench.contention.ContentionResult;
import io.tidemark.bench.latency.LatencyBySizeBenchmark;
import io.tidemark.bench.latency.LatencyBySizeOptions;
import io.tidemark.bench.latency.SizeResult;
import io.tidemark.bench.durability.DurabilityBenchmark;
import io.tidemark.bench.durability.DurabilityOptions;
import io.tidemark.bench.durability.DurabilityResult;
import io.tidemark.bench.progress.ProgressListener;
import io.tidemark.bench.report.ReportWriter;
import io.tidemark.bench.fanout.FanoutApi;
import io.tidemark.bench.fanout.FanoutBenchmark;
import io.tidemark.bench.fanout.FanoutOptions;
import io.tidemark.bench.fanout.FanoutResult;
import io.tidemark.bench.staleness.StalenessBenchmark;
import io.tidemark.bench.staleness.StalenessOptions;
import io.tidemark.bench.staleness.StalenessResult;
import io.tidemark.bench.throughput.LoadPoint;
import io.tidemark.bench.tpcc.TpccBenchmark;
import io.tidemark.bench.tpcc.TpccMix;
import io.tidemark.bench.tpcc.TpccOptions;
import io.tidemark.bench.tpcc.TpccResult;
import io.tidemark.bench.tpcc.TpccRun;
import io.tidemark.bench.tpcc.TpccSchema;
import io.tidemark.bench.throughput.ThroughputLatencyBenchmark;
import io.tidemark.bench.throughput.ThroughputLatencyOptions;
import io.tidemark.bench.tso.BackgroundRecords;
import io.tidemark.bench.txn.TxEnvironment;
import io.tidemark.bench.txn.TxMeasurement;
import io.tidemark.bench.txn.TxMode;
import io.tidemark.client.PostCommitMode;
import io.tidemark.embedded.EmbeddedStorage;
import io.tidemark.testing.SharedMiniCluster;
import org.apache.hadoop.hbase.client.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.io.TempDir;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The paper-evaluation benchmarks, each run for a short window per step on the shared mini-cluster with a tiny table:
 * every step measures committed transactions without errors, and the output folder holds the CSV, the plots and a
 * summary that shows them. Each benchmark keeps to a namespace and tables of its own, so they run side by side on the
 * module's test threads (issue 37: much of their time is waiting for HBase to create and drop tables); the TPC-C
 * tables have fixed names, which TpccAuditTest loads too, hence their lock.
 */
@Execution(ExecutionMode.CONCURRENT)
class SuiteSmokeTest {

    private static final PrintStream SILENT = new PrintStream(OutputStream.nullOutputStream());
    private static final TxEnvironment.DataSpec TINY = new TxEnvironment.DataSpec(50, 100);
    /** A window lasts until every client committed a transaction (MeasuredRun), so a short one measures something. */
    private static final Duration WINDOW = Duration.ofMillis(200);
    /** For the tests that need several transactions per client: aborts among them, a reused snapshot. */
    private static final Duration ONE_SECOND = Duration.ofSeconds(1);

    @Test
    void latencyBySizeMeasuresEveryModeAndSize(@TempDir Path folder) throws Exception {
        LatencyBySizeOptions options = new LatencyBySizeOptions(List.of(TxMode.GENERIC, TxMode.BATCHED,
                TxMode.FASTPATH, TxMode.RAW), List.of(1, 5), 1, TINY, 0.8, noWarmUp(WINDOW, folder));

        List<SizeResult> results = new LatencyBySizeBenchmark(local(), options, SILENT,
                ProgressListener.NONE).run();

        assertEquals(8, results.size());
        results.forEach(r -> assertMeasured(r.mode() + " size " + r.size(), r.measurement()));
        // Size 1 on the fast path has no begin or commit phase, like raw HBase; size 5 is a generic transaction.
        assertEquals(tsoPhasesMs(measurement(results, TxMode.RAW, 1)),
                tsoPhasesMs(measurement(results, TxMode.FASTPATH, 1)), "fast path: no begin/commit");
        assertTrue(measurement(results, TxMode.FASTPATH, 5).meanCommitMs() > 0, "size 5 commits through the TSO");
        assertReport(folder, 9, "latency-by-size-mean.png", "latency-by-size-p99.png");
        assertTrue(Files.readString(folder.resolve(ReportWriter.SUMMARY_FILE)).contains(
                LatencyBySizeBenchmark.FAST_PATH_NOTE), "the summary says what the fast-path rows measure");
    }

    private static double tsoPhasesMs(TxMeasurement m) {
        return m.meanBeginMs() + m.meanCommitMs();
    }

    private static TxMeasurement measurement(List<SizeResult> results, TxMode mode, int size) {
        return results.stream().filter(r -> r.mode() == mode && r.size() == size).findFirst().orElseThrow()
                .measurement();
    }

    @Test
    void throughputLatencySweepsTheBackgroundLoadUpToSaturation(@TempDir Path folder) throws Exception {
        ThroughputLatencyOptions options = new ThroughputLatencyOptions(List.of(TxMode.GENERIC, TxMode.BATCHED),
                List.of(1, 5), 1, TINY, 0.8, 2, 4, List.of(0.5), BackgroundRecords.WITH_COMMIT_RECORDS,
                noWarmUp(WINDOW, folder));

        List<LoadPoint> points = new ThroughputLatencyBenchmark(local(), options, SILENT,
                ProgressListener.NONE).run();

        assertEquals(6, points.size(), "no load, half and saturated, for each mode");
        for (LoadPoint p : points) {
            p.foreground().forEach(m -> assertMeasured(p.mode() + " at " + p.load(), m));
            if (p.background() != null) {
                assertTrue(p.background().committedPairs() > 0, "no background pair completed at " + p.load());
                assertEquals(0, p.background().errors(), p.background().firstError());
            }
        }
        for (TxMode mode : options.modes()) {
            assertTrue(ThroughputLatencyBenchmark.saturationThroughput(points, mode) > 0);
        }
        assertReport(folder, 13, "throughput-latency-size-1.png", "throughput-latency-size-5.png");
    }

    @Test
    void breakdownSplitsEveryKindOfTransactionIntoPhasesAndComparesItWithRawHBase(@TempDir Path folder)
            throws Exception {
        // The back-to-back raw mode runs in latencyBySizeMeasuresEveryModeAndSize.
        BreakdownOptions options = new BreakdownOptions(List.of(TxMode.GENERIC, TxMode.RAW_AFTER_BEGIN), 1, TINY, 0.8,
                PostCommitMode.SYNC, noWarmUp(WINDOW, folder));

        List<BreakdownResult> results = new BreakdownBenchmark(local(), options, SILENT,
                ProgressListener.NONE).run();

        List<String> kinds = List.of("read", "write", "read-modify-write", "5 ops", "10 ops");
        assertEquals(kinds, results.stream().filter(r -> r.mode() == TxMode.GENERIC)
                .map(BreakdownResult::scenario).toList());
        assertEquals(kinds, results.stream().filter(r -> r.mode() == TxMode.RAW_AFTER_BEGIN)
                .map(BreakdownResult::scenario).toList());
        for (BreakdownResult r : results) {
            assertMeasured(r.scenario(), r.measurement());
            assertTrue(r.measurement().meanOperationsMs() > 0, r.scenario() + " has no operations time");
        }
        BreakdownResult write = results.stream().filter(r -> r.mode() == TxMode.GENERIC
                && r.scenario().equals("write")).findFirst().orElseThrow();
        TxMeasurement m = write.measurement();
        assertTrue(m.meanBeginMs() > 0, "a generic write has a begin");
        assertTrue(m.meanCommitTsoMs() > 0 && m.meanCommitRecordMs() > 0 && m.meanPostCommitMs() > 0,
                "a generic write's commit is split into TSO, commit record and post-commit: " + m);
        // Within the histograms' precision (3 significant digits).
        assertTrue(m.meanCommitTsoMs() + m.meanCommitRecordMs() + m.meanPostCommitMs() <= m.meanCommitMs() * 1.01,
                "the phases lie within the commit: " + m);
        BreakdownResult rawWrite = results.stream().filter(r -> r.mode() == TxMode.RAW_AFTER_BEGIN
                && r.scenario().equals("write")).findFirst().orElseThrow();
        assertEquals(0, rawWrite.measurement().meanBeginMs(), "raw HBase has no begin");
        assertEquals(0, rawWrite.measurement().meanCommitTsoMs(), "raw HBase has no commit");
        assertReport(folder, 11, "breakdown-generic.png", "breakdown-raw-after-begin.png");
        String ratios = BreakdownBenchmark.ratios(results).orElseThrow().toCsv();
        assertTrue(ratios.startsWith("mode,transaction,mean_over_raw-after-begin,p50_over_raw-after-begin\n"), ratios);
        assertEquals(kinds.size(), ratios.lines().filter(line -> line.startsWith("generic,")).count(), ratios);
        assertTrue(Files.readString(folder.resolve(ReportWriter.SUMMARY_FILE)).contains("p50_over_raw-after-begin"),
                "the summary shows the ratios");
    }

    @Test
    void contentionAbortsMoreOnSkewedKeys(@TempDir Path folder) throws Exception {
        ContentionOptions options = new ContentionOptions(List.of(0.5, 1.4), 5, 4, TINY, noWarmUp(ONE_SECOND, folder));

        List<ContentionResult> results = new ContentionBenchmark(local(), options, SILENT,
                ProgressListener.NONE).run();

        assertEquals(2, results.size());
        results.forEach(r -> assertMeasured("theta " + r.theta(), r.measurement()));
        assertTrue(results.get(1).measurement().aborts() > 0, "4 threads on 50 keys at theta 1.4 never conflicted");
        assertReport(folder, 3, "contention-abort-rate.png", "contention-throughput.png");
    }

    @Test
    void stalenessComparesBeginningAtTheTsoWithReusedSnapshots(@TempDir Path folder) throws Exception {
        StalenessOptions options = new StalenessOptions(List.of(1, 5), List.of(Duration.ofSeconds(1)), 1, 1, TINY,
                0.8, noWarmUp(ONE_SECOND, folder));

        List<StalenessResult> results = new StalenessBenchmark(local(), options, SILENT,
                ProgressListener.NONE).run();

        assertEquals(4, results.size());
        for (StalenessResult r : results) {
            String what = r.keys() + " key(s), " + r.bound();
            assertTrue(r.transactions() > 0, "no read-only transaction in " + what);
            assertNull(r.firstError(), what);
            if (r.bound().equals("begin")) {
                assertEquals(r.transactions(), r.tsoBegins(), "every transaction begins at the TSO: " + what);
            } else {
                assertTrue(r.tsoBegins() < r.transactions(), "a bounded snapshot is reused: " + what);
            }
        }
        assertReport(folder, 5, "latency-cdf-1-keys.png", "latency-cdf-5-keys.png", "snapshot-age-cdf.png");
    }

    @Test
    void fanoutMeasuresEveryFanOutUpToTheTransactionSize(@TempDir Path folder) throws Exception {
        FanoutOptions options = new FanoutOptions(List.of(1, 4), List.of(1, 2, 8), 2, 50, 100, noWarmUp(WINDOW, folder),
                List.of(FanoutApi.EXECUTOR, FanoutApi.NON_BLOCKING));

        List<FanoutResult> results = new FanoutBenchmark(local(), options, SILENT, ProgressListener.NONE).run();

        assertEquals(List.of("executor 1x1", "executor 4x1", "executor 4x2", "executor 4x4", "non-blocking 1x1",
                "non-blocking 4x1", "non-blocking 4x2", "non-blocking 4x4"), results.stream().map(r -> r.api().label()
                + " " + r.operations() + "x" + r.fanout()).toList(),
                "fan-outs above the transaction size count as the size, for each API");
        for (FanoutResult r : results) {
            String what = r.api().label() + ", " + r.operations() + " operation(s), fan-out " + r.fanout();
            assertTrue(r.transactions() > 0, "no transaction in " + what);
            assertEquals(0, r.errors(), what + ": " + r.firstError());
        }
        assertReport(folder, 9, "fanout-p50.png", "fanout-p99.png");
    }

    @Test
    void durabilityComparesEveryModeUnderEachSetting(@TempDir Path folder) throws Exception {
        DurabilityOptions options = new DurabilityOptions(List.of(Durability.SYNC_WAL, Durability.SKIP_WAL), 1, 10,
                TINY, noWarmUp(WINDOW, folder));

        List<DurabilityResult> results = new DurabilityBenchmark(local(), options, SILENT,
                ProgressListener.NONE).run();

        assertEquals(10, results.size(), "raw, generic and fast-path single writes, raw and generic batches, twice");
        for (DurabilityResult r : results) {
            String what = r.durability() + ", " + r.mode().label() + ", " + r.mutationsPerCall();
            assertTrue(r.calls() > 0, "nothing written in " + what);
            assertEquals(0, r.errors(), what + ": " + r.firstError());
        }
        assertReport(folder, 11, "durability-single.png", "durability-batch.png");
    }

    @Test
    @ResourceLock(TpccSchema.TABLE_PREFIX)
    void tpccRunsNewOrderAndPaymentInBothModesAndTheTablesStayConsistent(@TempDir Path folder) throws Exception {
        TpccOptions options = new TpccOptions(2, 0.001, List.of(2), TpccMix.NEW_ORDER_PAYMENT,
                List.of(TxMode.GENERIC, TxMode.BATCHED), noWarmUp(Duration.ofSeconds(2), folder));

        TpccRun run = new TpccBenchmark(local(), options, SILENT, ProgressListener.NONE).run();

        assertEquals(List.of(TxMode.GENERIC, TxMode.BATCHED), run.results().stream().map(TpccResult::mode).toList());
        for (TpccResult r : run.results()) {
            assertTrue(r.stats().newOrders() > 0, "no New-Order committed in " + r.mode());
            assertTrue(r.stats().payments() > 0, "no Payment committed in " + r.mode());
            assertEquals(0, r.stats().errors(), r.mode() + ": " + r.stats().firstError());
        }
        assertEquals(Map.of(TxMode.GENERIC, List.of(), TxMode.BATCHED, List.of()), run.violations());
        assertReport(folder, 3, "tpcc-new-orders-per-minute.png", "tpcc-new-order-latency.png");
    }

    private static void assertMeasured(String what, TxMeasurement m) {
        assertTrue(m.commits() > 0, "no transaction committed in " + what);
        assertEquals(0, m.errors(), what + ": " + m.firstError());
    }

    private static void assertReport(Path folder, int csvLines, String... plots) throws Exception {
        List<String> csv = Files.readAllLines(folder.resolve(ReportWriter.CSV_FILE));
        assertEquals(csvLines, csv.size(), "header plus one line per result: " + csv);
        assertTrue(csv.stream().skip(1).allMatch(line -> line.endsWith(",local")), "every row names the storage: "
                + csv);
        String summary = Files.readString(folder.resolve(ReportWriter.SUMMARY_FILE));
        assertTrue(summary.startsWith("# "), summary);
        assertTrue(summary.contains("Storage: **local**"), summary);
        for (String plot : plots) {
            assertTrue(Files.size(folder.resolve(plot)) > 0, plot + " is empty");
            assertTrue(summary.contains("(" + plot + ")"), "summary does not show " + plot);
        }
    }

    /** The shared mini-cluster, which keeps its data on the local file system. */
    private static BenchTarget local() {
        return BenchTarget.embedded(SharedMiniCluster.connection(), EmbeddedStorage.LOCAL);
    }

    /** No warm-up: a smoke test proves that the benchmark measures and reports, not what it measures. */
    private static RunSettings noWarmUp(Duration window, Path folder) {
        return new RunSettings(Duration.ZERO, window, folder);
    }
}
