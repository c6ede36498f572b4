package io.tidemark.lease;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.zookeeper.ZKConfig;

/** The HBase cluster's ZooKeeper, where TSO leases live: TSOs and clients use the quorum HBase itself uses. */
public final class ZooKeeperQuorum {

    private ZooKeeperQuorum() {
    }

    /**
     * The ZooKeeper connect string ({@code host:port,host:port}) of the HBase cluster configured in {@code hbaseConf}
     * ({@code hbase.zookeeper.quorum} and {@code hbase.zookeeper.property.clientPort}).
     */
    public static String connectString(Configuration hbaseConf) {
        return ZKConfig.getZKQuorumServersString(hbaseConf);
    }
}
