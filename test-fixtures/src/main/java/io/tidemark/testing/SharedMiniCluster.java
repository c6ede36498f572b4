package io.tidemark.testing;

import io.tidemark.embedded.EmbeddedHBaseSettings;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.client.Connection;

import java.io.IOException;

/**
 * One HBase mini-cluster per test JVM (real ZooKeeper, master and region server, on the local file system), started
 * by the first test that asks for it and stopped when the JVM exits. Starting one takes about 15 s, so tests share it
 * and isolate themselves with their own table names.
 */
public final class SharedMiniCluster {

    private static HBaseTestingUtility utility;

    private SharedMiniCluster() {
    }

    public static synchronized HBaseTestingUtility utility() {
        if (utility == null) {
            HBaseTestingUtility u = new HBaseTestingUtility(configuration());
            try {
                u.startMiniZKCluster();
                u.startMiniHBaseCluster(StartMiniClusterOption.builder().numRegionServers(1).build());
            } catch (Exception e) {
                throw new IllegalStateException("could not start the HBase mini-cluster", e);
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    u.shutdownMiniCluster();
                } catch (Exception ignored) {
                    // The JVM is exiting; a failed shutdown only leaves temporary files behind.
                }
            }, "mini-cluster-shutdown"));
            utility = u;
        }
        return utility;
    }

    public static Connection connection() {
        try {
            return utility().getConnection();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public static Configuration conf() {
        return utility().getConfiguration();
    }

    private static Configuration configuration() {
        Configuration conf = HBaseConfiguration.create();
        EmbeddedHBaseSettings.apply(conf);
        return conf;
    }
}
