package io.tidemark.testing;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.client.Connection;

import java.io.IOException;

/**
 * The tso-server tests' own mini-cluster, one per test JVM. The shared fixture of the same name lives in
 * test-fixtures, which depends on tso-server, so these tests cannot use it. TODO(#9): the TSO's tests become unit
 * tests on the in-memory commit table and timestamp storage, and the few that need HBase move to integration-tests;
 * then this class goes.
 */
public final class SharedMiniCluster {

    private static HBaseTestingUtility utility;

    private SharedMiniCluster() {
    }

    public static synchronized HBaseTestingUtility utility() {
        if (utility == null) {
            Configuration conf = HBaseConfiguration.create();
            // Local file system, no web UIs: as io.tidemark.embedded.EmbeddedHBaseSettings.
            conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
            conf.set("hbase.wal.provider", "filesystem");
            conf.setInt("hbase.master.info.port", -1);
            conf.setInt("hbase.regionserver.info.port", -1);
            HBaseTestingUtility u = new HBaseTestingUtility(conf);
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
}
