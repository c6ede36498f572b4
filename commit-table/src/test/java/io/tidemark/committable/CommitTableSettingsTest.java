package io.tidemark.committable;

import io.tidemark.config.InvalidConfigurationException;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.junit.jupiter.api.Test;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CommitTableSettingsTest {

    private static TidemarkConfig config(String... keysAndValues) {
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        for (int i = 0; i < keysAndValues.length; i += 2) {
            config.set(keysAndValues[i], keysAndValues[i + 1]);
        }
        return config;
    }

    @Test
    void defaultsAreTheDocumentedOnes() {
        CommitTableSettings settings = new CommitTableSettings(config());
        assertEquals(TableName.valueOf(TidemarkConfig.COMMIT_TABLE_DEFAULT), settings.tableName());
        assertEquals(TidemarkConfig.COMMIT_TABLE_REGIONS_DEFAULT, settings.buckets());
        assertEquals(TidemarkConfig.COMMIT_TABLE_WRITE_PARALLELISM_DEFAULT, settings.writeParallelism());
        assertFalse(settings.guard());
        assertEquals(TidemarkConfig.CLIENT_COMMIT_RECORD_TIMEOUT_MS_DEFAULT, settings.commitRecordTimeoutMs());
    }

    @Test
    void badValuesNameTheirKey() {
        for (String[] bad : new String[][] {{TidemarkConfig.COMMIT_TABLE, "no such:table:name"},
                {TidemarkConfig.COMMIT_TABLE_REGIONS, "0"}, {TidemarkConfig.COMMIT_TABLE_REGIONS, "256"},
                {TidemarkConfig.COMMIT_TABLE_WRITE_PARALLELISM, "0"}, {TidemarkConfig.COMMIT_TABLE_GUARD, "yes"},
                {TidemarkConfig.CLIENT_COMMIT_RECORD_TIMEOUT_MS, "0"},
                {TidemarkConfig.CLIENT_COMMIT_RECORD_TIMEOUT_MS, "3600001"}}) {
            InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                    () -> new CommitTableSettings(config(bad)));
            assertTrue(e.getMessage().contains(bad[0]), e.getMessage());
        }
    }
}
