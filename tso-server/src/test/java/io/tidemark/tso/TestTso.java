package io.tidemark.tso;

import io.tidemark.committable.InMemoryCommitTable;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.tso.cluster.InMemoryClusterSettingsStore;
import io.tidemark.tso.lease.InMemoryLeases;
import io.tidemark.tso.timestamp.InMemoryTimestampStorage;
import org.apache.hadoop.conf.Configuration;

import java.io.IOException;

/**
 * Test TSOs on real sockets over in-memory parts: no HBase, no ZooKeeper. One {@link Cluster} is what the TSOs of one
 * set of tables share (timestamp bound, commit table, cluster settings, lease), so a test can run several TSOs of the
 * same cluster, one after the other or side by side.
 */
final class TestTso {

    private TestTso() {
    }

    /** Configuration for a TSO on an ephemeral loopback port. */
    static TidemarkConfig config(String name, CommitMode mode) {
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        config.set(TidemarkConfig.TSO_HOST, "127.0.0.1");
        config.set(TidemarkConfig.TSO_PORT, "0");
        // Every test TSO serves /metrics and /health, on a free port.
        config.set(TidemarkConfig.TSO_HTTP_PORT, "0");
        config.set(TidemarkConfig.TSO_COMMIT_MODE, mode.configName());
        config.set(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES, "4096");
        config.set(TidemarkConfig.TSO_TIMESTAMP_BLOCK, "100");
        config.set(TidemarkConfig.TSO_LOW_WATERMARK_PERSIST_MS, "50");
        // Patient leases (where they can run out, in ZooKeeper): a renewal delayed by a loaded machine never looks
        // like a dead TSO.
        config.set(TidemarkConfig.TSO_LEASE_PERIOD_MS, "5000");
        config.set(TidemarkConfig.TSO_LEASE_RENEW_INTERVAL_MS, "100");
        config.set(TidemarkConfig.TIMESTAMP_TABLE, "tsotest:" + name + "_timestamps");
        config.set(TidemarkConfig.COMMIT_TABLE, "tsotest:" + name + "_commits");
        return config;
    }

    /** A TSO serving a cluster of its own. */
    static TsoServer start(TidemarkConfig config) throws IOException {
        return new Cluster().start(config);
    }

    /** What the TSOs of one cluster share, in memory. */
    static final class Cluster implements TsoCluster {
        final InMemoryTimestampStorage timestampStorage = new InMemoryTimestampStorage();
        final InMemoryCommitTable commitTable = new InMemoryCommitTable();
        final InMemoryClusterSettingsStore settings = new InMemoryClusterSettingsStore();
        final InMemoryLeases leases = new InMemoryLeases();

        @Override
        public TsoServer.Builder builder(TidemarkConfig config) {
            return TsoServer.builder().config(config).timestampStorage(timestampStorage).commitTable(commitTable)
                    .clusterSettingsStore(settings).leases(leases::election);
        }

        @Override
        public InMemoryTimestampStorage timestampStorage() {
            return timestampStorage;
        }

        @Override
        public InMemoryCommitTable commitTable() {
            return commitTable;
        }

        @Override
        public void takeLease(String intruder) {
            if (!leases.revokeHolder("the lease was taken over by TSO " + intruder)) {
                throw new IllegalStateException("nobody held the lease");
            }
        }
    }
}
