package io.tidemark.embedded;

import org.apache.hadoop.conf.Configuration;

/**
 * Settings for an in-process HBase (the quick start, the benchmarks and the tests all use HBase's mini-cluster on
 * the local file system). Kept in one place so all three run the same HBase.
 */
public final class EmbeddedHBaseSettings {

    private EmbeddedHBaseSettings() {
    }

    public static void apply(Configuration conf) {
        // No HDFS: the local file system cannot hflush, so the WAL must not insist on that capability.
        conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
        conf.set("hbase.wal.provider", "filesystem");
        // Enough handlers for many concurrent transactional clients on one region server.
        conf.setInt("hbase.regionserver.handler.count", 30);
        // No web UIs: they are not needed and their ports could clash with other processes.
        conf.setInt("hbase.master.info.port", -1);
        conf.setInt("hbase.regionserver.info.port", -1);
    }
}
