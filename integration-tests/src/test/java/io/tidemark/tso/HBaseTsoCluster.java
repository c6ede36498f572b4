package io.tidemark.tso;

import io.tidemark.committable.CommitTableSettings;
import io.tidemark.committable.HBaseCommitTable;
import io.tidemark.config.HostAndPort;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.lease.TsoLeaseNode;
import io.tidemark.lease.ZooKeeperQuorum;
import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.tso.timestamp.HBaseTimestampStorage;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.hadoop.hbase.client.Connection;

/**
 * TSOs on the shared mini-cluster: timestamp bound, cluster settings and commit table in HBase (the tables named by
 * the configuration), the lease in its ZooKeeper. The tso-server unit tests run the same contracts on in-memory
 * parts; these run them on the real ones.
 */
final class HBaseTsoCluster implements TsoCluster {

    private final TidemarkConfig config;
    private final Connection tsoConnection;

    /** TSOs whose tables {@code config} names, on the mini-cluster's shared connection. */
    HBaseTsoCluster(TidemarkConfig config) {
        this(config, SharedMiniCluster.connection());
    }

    /** TSOs whose tables {@code config} names, talking to HBase over {@code tsoConnection}. */
    HBaseTsoCluster(TidemarkConfig config, Connection tsoConnection) {
        this.config = config;
        this.tsoConnection = tsoConnection;
    }

    @Override
    public TsoServer.Builder builder(TidemarkConfig tsoConfig) {
        return TsoServer.builder().config(tsoConfig).hbaseConnection(tsoConnection);
    }

    @Override
    public HBaseTimestampStorage timestampStorage() {
        return new HBaseTimestampStorage(SharedMiniCluster.connection(),
                config.get(TidemarkConfig.TIMESTAMP_TABLE));
    }

    @Override
    public HBaseCommitTable commitTable() {
        return new HBaseCommitTable(SharedMiniCluster.connection(), new CommitTableSettings(config));
    }

    @Override
    public void takeLease(String intruder) throws Exception {
        String path = new TsoSettings(config).leasePath();
        try (CuratorFramework zk = CuratorFrameworkFactory.newClient(
                ZooKeeperQuorum.connectString(SharedMiniCluster.conf()), new RetryOneTime(100))) {
            zk.start();
            zk.setData().forPath(path, new TsoLeaseNode(intruder, new HostAndPort("127.0.0.1", 1)).encode());
        }
    }
}
