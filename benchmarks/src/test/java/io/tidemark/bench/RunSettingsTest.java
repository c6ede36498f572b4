package io.tidemark.bench;

import io.tidemark.bench.durability.DurabilityOptions;
import io.tidemark.bench.fanout.FanoutApi;
import io.tidemark.bench.fanout.FanoutOptions;
import io.tidemark.bench.staleness.StalenessOptions;
import io.tidemark.bench.tpcc.TpccMix;
import io.tidemark.bench.tpcc.TpccOptions;
import io.tidemark.bench.txn.TxEnvironment;
import io.tidemark.bench.txn.TxMode;
import org.apache.hadoop.hbase.client.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RunSettingsTest {

    private static final Path FOLDER = Path.of("bench-results", "x");

    @Test
    void noWarmUpAndAPositiveDurationAreAccepted() {
        RunSettings.check(Duration.ZERO, Duration.ofMillis(1), FOLDER);
    }

    @Test
    void eachBadSettingIsRefusedNamingIt() {
        assertRefused("warm-up", Duration.ofSeconds(-1), Duration.ofSeconds(1), FOLDER);
        assertRefused("duration", Duration.ZERO, Duration.ZERO, FOLDER);
        assertRefused("duration", Duration.ZERO, null, FOLDER);
        assertRefused("output folder", Duration.ZERO, Duration.ofSeconds(1), null);
    }

    @Test
    void tpccDurabilityFanoutAndStalenessRefuseAnEmptyWindow() {
        TxEnvironment.DataSpec data = new TxEnvironment.DataSpec(50, 100);
        Duration none = Duration.ZERO;
        assertRefusesDuration(() -> new TpccOptions(1, 0.1, List.of(1), TpccMix.NEW_ORDER, List.of(TxMode.GENERIC),
                none, none, FOLDER));
        assertRefusesDuration(() -> new DurabilityOptions(List.of(Durability.SYNC_WAL), 1, 10, data, none, none,
                FOLDER));
        assertRefusesDuration(() -> new FanoutOptions(List.of(1), List.of(1), 1, 10, 100, none, none, FOLDER,
                List.of(FanoutApi.EXECUTOR)));
        assertRefusesDuration(() -> new StalenessOptions(List.of(1), List.of(Duration.ofSeconds(1)), 1, 1, data, 0.8,
                none, none, FOLDER));
    }

    private static void assertRefusesDuration(Executable build) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, build);
        assertTrue(e.getMessage().startsWith("duration"), e.getMessage());
    }

    private static void assertRefused(String named, Duration warmup, Duration duration, Path folder) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RunSettings.check(warmup, duration, folder));
        assertTrue(e.getMessage().startsWith(named), e.getMessage());
    }
}
