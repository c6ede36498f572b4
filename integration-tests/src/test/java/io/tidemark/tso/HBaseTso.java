package io.tidemark.tso;

import io.tidemark.committable.CommitTableSettings;
import io.tidemark.committable.HBaseCommitTable;
import io.tidemark.config.HostAndPort;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.lease.TsoLeaseNode;
import io.tidemark.lease.ZooKeeperQuorum;
import io.tidemark.protocol.CommitMode;
import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.tso.timestamp.HBaseTimestampStorage;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;

import java.io.IOException;

/**
 * TSOs on the shared mini-cluster: their timestamp bound, cluster settings and commit table in HBase, their lease in
 * its ZooKeeper. The unit tests of tso-server run the same TSO on in-memory parts; these tests run it on the real
 * ones.
 */
final class HBaseTso {

    private HBaseTso() {
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
        // Patient leases: a renewal delayed by a loaded machine never looks like a dead TSO.
        config.set(TidemarkConfig.TSO_LEASE_PERIOD_MS, "5000");
        config.set(TidemarkConfig.TSO_LEASE_RENEW_INTERVAL_MS, "100");
        config.set(TidemarkConfig.COMMIT_TABLE, "tsotest:" + name + "_commits");
        config.set(TidemarkConfig.COMMIT_TABLE_REGIONS, "1");
        config.set(TidemarkConfig.TIMESTAMP_TABLE, "tsotest:" + name + "_timestamps");
        return config;
    }

    static TsoServer.Builder builder(TidemarkConfig config) {
        return TsoServer.builder().config(config).hbaseConnection(SharedMiniCluster.connection());
    }

    static TsoServer start(TidemarkConfig config) throws IOException {
        TsoServer server = builder(config).build();
        server.start();
        return server;
    }

    static HBaseCommitTable commitTable(TidemarkConfig config) {
        return new HBaseCommitTable(SharedMiniCluster.connection(), new CommitTableSettings(config));
    }

    /** Another TSO takes the lease of {@code config}'s tables, as a standby does after a take-over. */
    static void takeLease(TidemarkConfig config, String intruder) throws Exception {
        String path = new TsoSettings(config).leasePath();
        try (CuratorFramework zk = CuratorFrameworkFactory.newClient(
                ZooKeeperQuorum.connectString(SharedMiniCluster.conf()), new RetryOneTime(100))) {
            zk.start();
            zk.setData().forPath(path, new TsoLeaseNode(intruder, new HostAndPort("127.0.0.1", 1)).encode());
        }
    }

    static HBaseTimestampStorage timestampStorage(TidemarkConfig config) {
        return new HBaseTimestampStorage(SharedMiniCluster.connection(),
                TableName.valueOf(config.getString(TidemarkConfig.TIMESTAMP_TABLE, "unused")));
    }
}
