package io.tidemark.bench;

import io.tidemark.bench.breakdown.BreakdownOptions;
import io.tidemark.bench.contention.ContentionOptions;
import io.tidemark.bench.durability.DurabilityOptions;
import io.tidemark.bench.e2e.E2eOptions;
import io.tidemark.bench.fanout.FanoutApi;
import io.tidemark.bench.fanout.FanoutOptions;
import io.tidemark.bench.latency.LatencyBySizeOptions;
import io.tidemark.bench.progress.RunTiming;
import io.tidemark.bench.staleness.StalenessOptions;
import io.tidemark.bench.throughput.ThroughputLatencyOptions;
import io.tidemark.bench.tpcc.TpccMix;
import io.tidemark.bench.tpcc.TpccOptions;
import io.tidemark.bench.tso.BackgroundRecords;
import io.tidemark.bench.tso.TsoBenchmarkOptions;
import io.tidemark.bench.txn.TxEnvironment;
import io.tidemark.bench.txn.TxMode;
import io.tidemark.client.PostCommitMode;
import org.apache.hadoop.hbase.client.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class RunSettingsTest {

    private static final Path FOLDER = Path.of("bench-results", "x");

    @Test
    void noWarmUpAndAPositiveDurationAreAccepted() {
        RunSettings run = new RunSettings(Duration.ZERO, Duration.ofMillis(1), FOLDER);

        assertEquals(Duration.ZERO, run.warmup());
    }

    @Test
    void eachBadSettingIsRefusedNamingIt() {
        assertRefused("warm-up", Duration.ofSeconds(-1), Duration.ofSeconds(1), FOLDER);
        assertRefused("warm-up", null, Duration.ofSeconds(1), FOLDER);
        assertRefused("duration", Duration.ZERO, Duration.ZERO, FOLDER);
        assertRefused("duration", Duration.ZERO, null, FOLDER);
        assertRefused("output folder", Duration.ZERO, Duration.ofSeconds(1), null);
    }

    @Test
    void aRunIsPlannedAsItsLeastWarmUpAndItsMeasuredTime() {
        assertEquals(13, new RunSettings(Duration.ofSeconds(3), Duration.ofSeconds(10), FOLDER).secondsPerRun());
    }

    @Test
    void eachRunIsTimedByTheWarmUpAndTheMeasuredTime() {
        assertEquals(new RunTiming(Duration.ofSeconds(3), Duration.ofSeconds(10)),
                new RunSettings(Duration.ofSeconds(3), Duration.ofSeconds(10), FOLDER).perRun());
    }

    @Test
    void theTimingNoteNamesTheWarmUpRuleAndTheMeasuredSecondsPerRun() {
        assertEquals("No warm-up, measured 10 s per skew",
                new RunSettings(Duration.ZERO, Duration.ofSeconds(10), FOLDER).timing("skew"));
    }

    @Test
    void everyBenchmarksOptionsRefuseMissingRunSettings() {
        TxEnvironment.DataSpec data = new TxEnvironment.DataSpec(50, 100);
        List<TxMode> generic = List.of(TxMode.GENERIC);
        assertRefusesMissing(() -> new BreakdownOptions(generic, 1, data, 0.8, PostCommitMode.SYNC, null));
        assertRefusesMissing(() -> new ContentionOptions(List.of(0.5), 5, 1, data, null));
        assertRefusesMissing(() -> new DurabilityOptions(List.of(Durability.SYNC_WAL), 1, 10, data, null));
        assertRefusesMissing(() -> new E2eOptions(1, 50, 100, 1, 1, PostCommitMode.SYNC, false, null, 1));
        assertRefusesMissing(() -> new FanoutOptions(List.of(1), List.of(1), 1, 10, 100, null,
                List.of(FanoutApi.EXECUTOR)));
        assertRefusesMissing(() -> new LatencyBySizeOptions(generic, List.of(1), 1, data, 0.8, null));
        assertRefusesMissing(() -> new StalenessOptions(List.of(1), List.of(Duration.ofSeconds(1)), 1, 1, data, 0.8,
                null));
        assertRefusesMissing(() -> new ThroughputLatencyOptions(generic, List.of(1), 1, data, 0.8, 1, 1, List.of(0.5),
                BackgroundRecords.WITH_COMMIT_RECORDS, null));
        assertRefusesMissing(() -> new TpccOptions(1, 0.1, List.of(1), TpccMix.NEW_ORDER, generic, null));
        assertRefusesMissing(() -> new TsoBenchmarkOptions(1, 1, null, 0, List.of(), false));
    }

    private static void assertRefusesMissing(Executable build) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, build);
        assertTrue(e.getMessage().startsWith("run settings"), e.getMessage());
    }

    private static void assertRefused(String named, Duration warmup, Duration duration, Path folder) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new RunSettings(warmup, duration, folder));
        assertTrue(e.getMessage().startsWith(named), e.getMessage());
    }
}
