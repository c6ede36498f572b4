package io.tidemark.tso;

import io.tidemark.config.InvalidConfigurationException;
import io.tidemark.config.Setting;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.tso.conflict.ConflictMap;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConfigurationTest {

    @Test
    void invalidConfigurationValueIsReportedWithItsKey() {
        assertInvalid(TidemarkConfig.TSO_PORT, "seventy");
        assertInvalid(TidemarkConfig.TSO_PORT, "70000");
        assertInvalid(TidemarkConfig.TSO_COMMIT_MODE, "eventually");
        assertInvalid(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES, "0");
        assertInvalid(TidemarkConfig.TSO_TIMESTAMP_BLOCK, "-1");
        assertInvalid(TidemarkConfig.TSO_BATCH_MAX_SIZE, "0");
        assertInvalid(TidemarkConfig.TSO_CONFLICT_LEVEL, "column");
        assertInvalid(TidemarkConfig.TSO_LEASE_PERIOD_MS, "300");
        assertInvalid(TidemarkConfig.ZOOKEEPER_ROOT, "tidemark");
        assertInvalid(TidemarkConfig.TSO_HTTP_PORT, "-2");
        assertInvalid(TidemarkConfig.TSO_HTTP_PORT, "65536");
        assertInvalid(TidemarkConfig.TSO_HTTP_PORT, "metrics");
    }

    @Test
    void conflictMapEntriesAreWhatTheMapCanHold() {
        Setting<Integer> entries = TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES;
        assertEquals(ConflictMap.WAYS, entries.parse(Integer.toString(ConflictMap.WAYS)));
        assertEquals(ConflictMap.MAX_ENTRIES, entries.parse(Integer.toString(ConflictMap.MAX_ENTRIES)));
        assertThrows(InvalidConfigurationException.class, () -> entries.parse(Integer.toString(ConflictMap.WAYS - 1)));
        assertThrows(InvalidConfigurationException.class,
                () -> entries.parse(Long.toString(ConflictMap.MAX_ENTRIES + 1L)));
    }

    private static void assertInvalid(Setting<?> setting, String value) {
        TidemarkConfig config = TestTso.config("config", CommitMode.LOW_LATENCY);
        config.set(setting, value);
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> new TestTso.Cluster().builder(config).build());
        assertTrue(e.getMessage().contains(setting.key()), e.getMessage());
    }
}
