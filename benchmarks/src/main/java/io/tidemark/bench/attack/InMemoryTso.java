package io.tidemark.bench.attack;

import io.tidemark.committable.InMemoryCommitTable;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.tso.TsoServer;
import io.tidemark.tso.cluster.InMemoryClusterSettingsStore;
import io.tidemark.tso.lease.InMemoryLeases;
import io.tidemark.tso.timestamp.InMemoryTimestampStorage;
import org.apache.hadoop.conf.Configuration;

import java.io.IOException;
import java.util.Map;

/**
 * A real TSO server (networking, limits and transaction processing as in production) whose storage, cluster settings
 * and lease live in memory: what the attacks aim at is the TSO's port, and without HBase in the same process the
 * TSO's memory can be measured alone.
 */
public final class InMemoryTso {

    private InMemoryTso() {
    }

    /** A configuration for a TSO on ephemeral loopback ports (HTTP too), with {@code settings} on top. */
    public static TidemarkConfig config(Map<String, String> settings) {
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        config.set(TidemarkConfig.TSO_HOST, "127.0.0.1");
        config.set(TidemarkConfig.TSO_PORT, "0");
        config.set(TidemarkConfig.TSO_HTTP_PORT, "0");
        settings.forEach(config.hadoopConfiguration()::set);
        return config;
    }

    /** Starts a TSO and waits until it serves. */
    public static TsoServer start(TidemarkConfig config) throws IOException {
        TsoServer server = TsoServer.builder().config(config).timestampStorage(new InMemoryTimestampStorage())
                .commitTable(new InMemoryCommitTable()).clusterSettingsStore(new InMemoryClusterSettingsStore())
                .leases(new InMemoryLeases()::election).build();
        server.start();
        return server;
    }
}
