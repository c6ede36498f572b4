package io.tidemark.tso;

import io.tidemark.committable.CommitTable;
import io.tidemark.committable.CommitTableSettings;
import io.tidemark.committable.HBaseCommitTable;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.testing.SharedMiniCluster;
import org.apache.hadoop.conf.Configuration;

import java.io.IOException;

/** Test configurations: a TSO on an ephemeral port with its own tables, on the shared mini-cluster. */
final class TestTso {

    private TestTso() {
    }

    /** Configuration for a TSO whose tables are named after {@code name}, so tests never share state. */
    static TidemarkConfig config(String name, CommitMode mode) {
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        config.set(TidemarkConfig.TSO_HOST, "127.0.0.1");
        config.set(TidemarkConfig.TSO_PORT, "0");
        config.set(TidemarkConfig.TSO_COMMIT_MODE, mode.configName());
        config.set(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES, "4096");
        config.set(TidemarkConfig.TSO_TIMESTAMP_BLOCK, "100");
        config.set(TidemarkConfig.TSO_LOW_WATERMARK_PERSIST_MS, "50");
        config.set(TidemarkConfig.COMMIT_TABLE, "tsotest:" + name + "_commits");
        config.set(TidemarkConfig.COMMIT_TABLE_REGIONS, "1");
        config.set(TidemarkConfig.TIMESTAMP_TABLE, "tsotest:" + name + "_timestamps");
        return config;
    }

    static TsoServer start(TidemarkConfig config) throws IOException {
        TsoServer server = TsoServer.builder().config(config).hbaseConnection(SharedMiniCluster.connection()).build();
        server.start();
        return server;
    }

    static CommitTable commitTable(TidemarkConfig config) {
        return new HBaseCommitTable(SharedMiniCluster.connection(), new CommitTableSettings(config));
    }
}
