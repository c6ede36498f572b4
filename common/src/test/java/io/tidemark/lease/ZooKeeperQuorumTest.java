package io.tidemark.lease;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HConstants;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ZooKeeperQuorumTest {

    @Test
    void aConfigurationWithoutSiteFileNamesTheDefaultZooKeeper() {
        assertTrue(ZooKeeperQuorum.isHBaseDefault(HBaseConfiguration.create()));
        assertTrue(ZooKeeperQuorum.isHBaseDefault(new Configuration(false)));
    }

    @Test
    void aQuorumSetByTheApplicationIsNotTheDefault() {
        Configuration conf = HBaseConfiguration.create();
        conf.set(HConstants.ZOOKEEPER_QUORUM, "zk1.example.com");
        assertFalse(ZooKeeperQuorum.isHBaseDefault(conf));
    }
}
