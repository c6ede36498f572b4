package io.tidemark.client.sweeper;

import io.tidemark.config.InvalidConfigurationException;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SweeperSettingsTest {

    private static TidemarkConfig config(Object... settingsAndValues) {
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        for (int i = 0; i < settingsAndValues.length; i += 2) {
            config.hadoopConfiguration().set(settingsAndValues[i].toString(), settingsAndValues[i + 1].toString());
        }
        return config;
    }

    @Test
    void markersWaitForTheCommitRecordTimeoutPlusTheMargin() {
        SweeperSettings settings = new SweeperSettings(config());
        assertEquals(30_000L + 5_000L, settings.markerRemovalDelayMs());
        assertEquals(3_600_000L, settings.invalidatedAgeMs());
    }

    @Test
    void anInvalidatedAgeNotAboveTheCommitRecordTimeoutIsRefused() {
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> new SweeperSettings(config(TidemarkConfig.CLIENT_COMMIT_RECORD_TIMEOUT_MS, "5000",
                        TidemarkConfig.SWEEPER_INVALIDATED_AGE_MS, "5000")));
        assertTrue(e.getMessage().contains(TidemarkConfig.SWEEPER_INVALIDATED_AGE_MS.key()), e.getMessage());
        assertTrue(e.getMessage().contains(TidemarkConfig.CLIENT_COMMIT_RECORD_TIMEOUT_MS.key()), e.getMessage());
        assertEquals(5001, new SweeperSettings(config(TidemarkConfig.CLIENT_COMMIT_RECORD_TIMEOUT_MS, "5000",
                TidemarkConfig.SWEEPER_INVALIDATED_AGE_MS, "5001")).invalidatedAgeMs());
    }

    @Test
    void badValuesNameTheirKey() {
        for (String[] bad : new String[][] {{TidemarkConfig.SWEEPER_BATCH.key(), "0"},
                {TidemarkConfig.SWEEPER_MARKER_MARGIN_MS.key(), "-1"},
                {TidemarkConfig.SWEEPER_COMMITTED_AGE_MS.key(), "x"}}) {
            InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                    () -> new SweeperSettings(config((Object[]) bad)));
            assertTrue(e.getMessage().contains(bad[0]), e.getMessage());
        }
    }
}
