package io.tidemark.committable;

import io.tidemark.config.InvalidConfigurationException;
import io.tidemark.config.Setting;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.junit.jupiter.api.Test;


import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CommitTableSettingsTest {

    private static TidemarkConfig config(Object... settingsAndValues) {
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        for (int i = 0; i < settingsAndValues.length; i += 2) {
            config.set((Setting<?>) settingsAndValues[i], (String) settingsAndValues[i + 1]);
        }
        return config;
    }

    @Test
    void defaultsAreTheDocumentedOnes() {
        CommitTableSettings settings = new CommitTableSettings(config());
        assertEquals(TableName.valueOf("tidemark:commits"), settings.tableName());
        assertEquals(4, settings.buckets());
        assertEquals(4, settings.writeParallelism());
        assertTrue(settings.guard(), "only the TSO's decisions get into the commit table unless told otherwise");
        assertEquals(30_000L, settings.commitRecordTimeoutMs());
    }

    @Test
    void regionsAcceptExactlyTheBucketsTheLayoutHas() {
        CommitTableSettings most = new CommitTableSettings(config(TidemarkConfig.COMMIT_TABLE_REGIONS,
                Integer.toString(CommitTableSchema.MAX_BUCKETS)));
        assertEquals(CommitTableSchema.MAX_BUCKETS, most.buckets());
        assertThrows(InvalidConfigurationException.class, () -> new CommitTableSettings(config(
                TidemarkConfig.COMMIT_TABLE_REGIONS, Integer.toString(CommitTableSchema.MAX_BUCKETS + 1))));
    }

    @Test
    void badValuesNameTheirKey() {
        for (Object[] bad : new Object[][] {{TidemarkConfig.COMMIT_TABLE, "no such:table:name"},
                {TidemarkConfig.COMMIT_TABLE_REGIONS, "0"}, {TidemarkConfig.COMMIT_TABLE_REGIONS, "256"},
                {TidemarkConfig.COMMIT_TABLE_WRITE_PARALLELISM, "0"}, {TidemarkConfig.COMMIT_TABLE_GUARD, "yes"},
                {TidemarkConfig.CLIENT_COMMIT_RECORD_TIMEOUT_MS, "0"},
                {TidemarkConfig.CLIENT_COMMIT_RECORD_TIMEOUT_MS, "3600001"}}) {
            InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                    () -> new CommitTableSettings(config(bad)));
            assertTrue(e.getMessage().contains(bad[0].toString()), e.getMessage());
        }
    }
}
