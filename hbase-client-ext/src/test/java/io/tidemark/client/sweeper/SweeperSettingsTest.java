package io.tidemark.client.sweeper;

import io.tidemark.config.InvalidConfigurationException;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SweeperSettingsTest {

    private static TidemarkConfig config(String... keysAndValues) {
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        for (int i = 0; i < keysAndValues.length; i += 2) {
            config.set(keysAndValues[i], keysAndValues[i + 1]);
        }
        return config;
    }

    @Test
    void markersWaitForTheCommitRecordTimeoutPlusTheMargin() {
        SweeperSettings settings = new SweeperSettings(config());
        assertEquals(TidemarkConfig.CLIENT_COMMIT_RECORD_TIMEOUT_MS_DEFAULT
                + TidemarkConfig.SWEEPER_MARKER_MARGIN_MS_DEFAULT, settings.markerRemovalDelayMs());
        assertEquals(TidemarkConfig.SWEEPER_INVALIDATED_AGE_MS_DEFAULT, settings.invalidatedAgeMs());
    }

    @Test
    void anInvalidatedAgeNotAboveTheCommitRecordTimeoutIsRefused() {
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> new SweeperSettings(config(TidemarkConfig.CLIENT_COMMIT_RECORD_TIMEOUT_MS, "5000",
                        TidemarkConfig.SWEEPER_INVALIDATED_AGE_MS, "5000")));
        assertTrue(e.getMessage().contains(TidemarkConfig.SWEEPER_INVALIDATED_AGE_MS), e.getMessage());
        assertTrue(e.getMessage().contains(TidemarkConfig.CLIENT_COMMIT_RECORD_TIMEOUT_MS), e.getMessage());
        assertEquals(5001, new SweeperSettings(config(TidemarkConfig.CLIENT_COMMIT_RECORD_TIMEOUT_MS, "5000",
                TidemarkConfig.SWEEPER_INVALIDATED_AGE_MS, "5001")).invalidatedAgeMs());
    }

    @Test
    void badValuesNameTheirKey() {
        for (String[] bad : new String[][] {{TidemarkConfig.SWEEPER_BATCH, "0"},
                {TidemarkConfig.SWEEPER_MARKER_MARGIN_MS, "-1"}, {TidemarkConfig.SWEEPER_COMMITTED_AGE_MS, "x"}}) {
            InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                    () -> new SweeperSettings(config(bad)));
            assertTrue(e.getMessage().contains(bad[0]), e.getMessage());
        }
    }
}
