package io.tidemark.client;

import io.tidemark.config.InvalidConfigurationException;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The client's settings that depend on each other. */
class ClientSettingsTest {

    private static TidemarkConfig config(String... keysAndValues) {
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        for (int i = 0; i < keysAndValues.length; i += 2) {
            config.hadoopConfiguration().set(keysAndValues[i], keysAndValues[i + 1]);
        }
        return config;
    }

    @Test
    void lazyBeginIsOffByDefaultAndOnWhenAsked() {
        assertFalse(new ClientSettings(config()).lazyBegin());
        assertTrue(new ClientSettings(config(TidemarkConfig.CLIENT_LAZY_BEGIN.key(), "true")).lazyBegin());
    }

    @Test
    void lazyBeginWithoutSingleRegionCommitsIsRefusedNamingWhy() {
        InvalidConfigurationException noCommits = assertThrows(InvalidConfigurationException.class,
                () -> new ClientSettings(config(TidemarkConfig.CLIENT_LAZY_BEGIN.key(), "true",
                        TidemarkConfig.CLIENT_SINGLE_REGION_COMMIT.key(), "false")));
        assertTrue(noCommits.getMessage().contains(TidemarkConfig.CLIENT_LAZY_BEGIN.key()), noCommits.getMessage());
        assertThrows(InvalidConfigurationException.class, () -> new ClientSettings(config(
                TidemarkConfig.CLIENT_LAZY_BEGIN.key(), "true", TidemarkConfig.CLIENT_WRITE_BUFFER_BYTES.key(), "0")),
                "a write buffer of 0 turns single-region commits off");
    }
}
