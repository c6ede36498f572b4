package io.tidemark.lease;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.zookeeper.ZKConfig;

import java.util.Arrays;

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

    /**
     * Whether {@code hbaseConf} names no ZooKeeper of its own: its quorum is unset or comes only from HBase's built-in
     * defaults, as when no hbase-site.xml was found.
     */
    public static boolean isHBaseDefault(Configuration hbaseConf) {
        String[] sources = hbaseConf.getPropertySources(HConstants.ZOOKEEPER_QUORUM);
        return sources == null || Arrays.stream(sources).allMatch(HBASE_DEFAULTS::equals);
    }

    private static final String HBASE_DEFAULTS = "hbase-default.xml";
}
