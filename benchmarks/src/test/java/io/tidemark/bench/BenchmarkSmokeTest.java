package io.tidemark.bench;

import io.tidemark.bench.e2e.E2eOptions;
import io.tidemark.bench.e2e.E2eResult;
import io.tidemark.client.PostCommitMode;
import io.tidemark.bench.e2e.EndToEndBenchmark;
import io.tidemark.bench.progress.ProgressListener;
import io.tidemark.bench.report.ReportWriter;
import io.tidemark.bench.tso.TsoBenchmark;
import io.tidemark.bench.tso.TsoBenchmarkOptions;
import io.tidemark.bench.tso.TsoRunResult;
import io.tidemark.embedded.EmbeddedCluster;
import io.tidemark.embedded.EmbeddedStorage;
import io.tidemark.protocol.CommitMode;
import io.tidemark.testing.SharedMiniCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The TSO and end-to-end benchmarks, run very briefly on the shared mini-cluster, measure something and write their
 * reports. Like SuiteSmokeTest's, they run side by side on the module's test threads, except the runs of one
 * benchmark, which share its namespace and tables.
 */
@Execution(ExecutionMode.CONCURRENT)
class BenchmarkSmokeTest {

    /** A window lasts until every client committed a transaction or pair (MeasuredRun), so a short one measures. */
    private static final Duration WINDOW = Duration.ofMillis(200);
    private static final PrintStream SILENT = new PrintStream(OutputStream.nullOutputStream());
    /** The TSO benchmark's namespace, in every run. */
    private static final String TSO_BENCHMARK_TABLES = "bench tso tables";
    /** The end-to-end benchmark's data tables, named the same on every target. */
    private static final String E2E_BENCHMARK_TABLES = "bench e2e tables";

    @Test
    @ResourceLock(TSO_BENCHMARK_TABLES)
    void tsoBenchmarkMeasuresEveryScenarioAndWritesItsReport(@TempDir Path folder) throws Exception {
        TsoBenchmarkOptions options = new TsoBenchmarkOptions(2, 2, noWarmUp(WINDOW, folder), 0,
                List.of(1, 2), false);

        List<TsoRunResult> results = new TsoBenchmark(local(), options, SILENT,
                ProgressListener.NONE).run();

        assertEquals(6, results.size(), "four scenarios and two sweep points");
        assertEquals(List.of(1, 2), results.subList(4, 6).stream().map(TsoRunResult::clients).toList());
        for (TsoRunResult r : results) {
            assertTrue(r.pairs() > 0, "no pair completed in " + r.scenario());
            assertEquals(0, r.errors(), r.scenario() + ": " + r.firstError());
        }
        assertReportWritten(folder, results.size());
        assertTrue(Files.size(folder.resolve("tso-clients-throughput.png")) > 0);
        assertTrue(Files.size(folder.resolve("tso-clients-latency.png")) > 0);
    }

    @Test
    @ResourceLock(E2E_BENCHMARK_TABLES)
    void endToEndBenchmarkMeasuresEveryScenarioAndWritesItsReport(@TempDir Path folder) throws Exception {
        E2eOptions options = new E2eOptions(2, 50, 100, 1, 1, PostCommitMode.SYNC, false, noWarmUp(WINDOW, folder), 4);

        List<E2eResult> results = new EndToEndBenchmark(local(), options, SILENT).run();

        assertEquals(List.of("tidemark low-latency", "tidemark batched", "tidemark low-latency, non-blocking API",
                        "tidemark low-latency, non-blocking API, 4 in flight per thread", "tidemark single-region commit",
                        "tidemark single-region commit, lazy begin", "tidemark fast path", "raw HBase", "raw HBase after BEGIN"),
                results.stream().map(E2eResult::scenario).toList());
        for (E2eResult r : results) {
            assertTrue(r.transactions() > 0, "no transaction completed in " + r.scenario());
            assertEquals(0, r.errors(), r.scenario() + ": " + r.firstError());
        }
        assertReportWritten(folder, results.size());
    }

    @Test
    @ResourceLock(E2E_BENCHMARK_TABLES)
    void sideBySideRunsTheOneRequestScenariosAtOnceWithARowEach(@TempDir Path folder) throws Exception {
        E2eOptions options = new E2eOptions(2, 50, 100, 1, 2, PostCommitMode.ASYNC, false, noWarmUp(WINDOW, folder),
                1, 1.0, false, true, false);

        List<E2eResult> results = new EndToEndBenchmark(local(), options, SILENT).run();

        assertEquals(List.of("raw HBase", "tidemark fast path", "tidemark single-region commit",
                        "tidemark single-region commit, lazy begin"),
                results.stream().map(E2eResult::scenario).toList());
        for (E2eResult r : results) {
            assertTrue(r.writes().count() > 0, "no write transaction completed in " + r.scenario());
            assertEquals(0, r.errors(), r.scenario() + ": " + r.firstError());
        }
        assertReportWritten(folder, results.size());
        assertTrue(Files.readString(folder.resolve(ReportWriter.SUMMARY_FILE)).contains("Side by side"));
    }

    @Test
    @ResourceLock(TSO_BENCHMARK_TABLES)
    void tsoBenchmarkWithOmidAddsOmidsTwinScenarios(@TempDir Path folder) throws Exception {
        TsoBenchmarkOptions options = new TsoBenchmarkOptions(2, 2, noWarmUp(WINDOW, folder), 0,
                List.of(), true);

        List<TsoRunResult> results = new TsoBenchmark(local(), options, SILENT, ProgressListener.NONE).run();

        assertEquals(List.of("low-latency TSO only", "low-latency + commit record", "batched",
                        "low-latency TSO only, half rate", "omid low-latency TSO only",
                        "omid low-latency + commit record"),
                results.stream().map(TsoRunResult::scenario).toList());
        for (TsoRunResult r : results) {
            assertTrue(r.pairs() > 0, "no pair completed in " + r.scenario());
            assertEquals(0, r.errors(), r.scenario() + ": " + r.firstError());
        }
        assertReportWritten(folder, results.size());
    }

    @Test
    @ResourceLock(E2E_BENCHMARK_TABLES)
    void endToEndBenchmarkRunsMultiOperationTransactionsOnSplitTablesWithOmid(@TempDir Path folder)
            throws Exception {
        E2eOptions options = new E2eOptions(2, 50, 100, 3, 2, PostCommitMode.ASYNC, true, noWarmUp(WINDOW, folder), 1);

        List<E2eResult> results = new EndToEndBenchmark(local(), options, SILENT).run();

        assertEquals(List.of("tidemark low-latency", "tidemark batched", "tidemark low-latency, non-blocking API",
                        "tidemark single-region commit", "tidemark single-region commit, lazy begin",
                        "omid low-latency", "raw HBase", "raw HBase after BEGIN"),
                results.stream().map(E2eResult::scenario).toList(), "no fast path for 3-operation transactions");
        for (E2eResult r : results) {
            assertTrue(r.transactions() > 0, "no transaction completed in " + r.scenario());
            assertEquals(0, r.errors(), r.scenario() + ": " + r.firstError());
        }
        assertReportWritten(folder, results.size());
        assertTrue(Files.readString(folder.resolve(ReportWriter.SUMMARY_FILE))
                .contains("transactions of 3 operations"));
    }

    @Test
    @ResourceLock(E2E_BENCHMARK_TABLES)
    void onAnExistingClusterOnlyItsTsosCommitModeIsMeasuredAndTheReportSaysSo(@TempDir Path folder)
            throws Exception {
        E2eOptions options = new E2eOptions(2, 50, 100, 1, 1, PostCommitMode.SYNC, false, noWarmUp(WINDOW, folder), 1);
        try (EmbeddedCluster separateTso = EmbeddedCluster.builder().hbaseConnection(SharedMiniCluster.connection())
                .tableNamespace("bench_existing").commitMode(CommitMode.LOW_LATENCY).start()) {
            BenchTarget existing = BenchTarget.external(SharedMiniCluster.connection(), separateTso.clientConfig(),
                    "the test's cluster");

            assertFalse(existing.startsTsos());
            assertThrows(IllegalArgumentException.class, () -> existing.tso(CommitMode.BATCHED, "unused"));
            List<E2eResult> results = new EndToEndBenchmark(existing, options, SILENT).run();

            assertEquals(List.of("tidemark low-latency", "tidemark low-latency, non-blocking API",
                            "tidemark single-region commit", "tidemark single-region commit, lazy begin",
                            "tidemark fast path",
                            "raw HBase", "raw HBase after BEGIN"),
                    results.stream().map(E2eResult::scenario).toList());
            for (E2eResult r : results) {
                assertTrue(r.transactions() > 0, "no transaction completed in " + r.scenario());
                assertEquals(0, r.errors(), r.scenario() + ": " + r.firstError());
            }
            assertTrue(separateTso.tso().isActive(), "the benchmark must leave the existing TSO running");
        }
        List<String> csv = Files.readAllLines(folder.resolve(ReportWriter.CSV_FILE));
        assertTrue(csv.stream().skip(1).allMatch(line -> line.endsWith(",external")), csv.toString());
        assertTrue(Files.readString(folder.resolve(ReportWriter.SUMMARY_FILE)).contains("Storage: **external**"));
    }

    private static void assertReportWritten(Path folder, int scenarios) throws Exception {
        List<String> csv = Files.readAllLines(folder.resolve(ReportWriter.CSV_FILE));
        assertEquals(scenarios + 1, csv.size(), "header plus one line per scenario: " + csv);
        assertTrue(csv.get(0).endsWith("," + ReportWriter.STORAGE_COLUMN), csv.get(0));
        assertTrue(csv.stream().skip(1).allMatch(line -> line.endsWith(",local")), "every row names the storage: "
                + csv);
        String summary = Files.readString(folder.resolve(ReportWriter.SUMMARY_FILE));
        assertTrue(summary.startsWith("# "), summary);
        assertTrue(summary.contains("Storage: **local**"), summary);
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
