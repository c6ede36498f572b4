package io.tidemark.embedded;

import org.apache.hadoop.conf.Configuration;

/**
 * Settings for an in-process HBase (the quick start, the benchmarks and the tests all use HBase's mini-cluster, on
 * the local file system unless {@link EmbeddedStorage#HDFS} is chosen). Kept in one place so all of them run the same
 * HBase.
 */
public final class EmbeddedHBaseSettings {

    /**
     * The region server's interval between reports to the master, and between its attempts to register with it
     * ({@code hbase.regionserver.msginterval}, 3000 ms by default), for HBase started by tests and tools.
     */
    public static final int REPORT_INTERVAL_MS = 200;

    private EmbeddedHBaseSettings() {
    }

    /** The settings for an HBase on the local file system. */
    public static void apply(Configuration conf) {
        apply(conf, EmbeddedStorage.LOCAL);
    }

    /** The settings for an HBase whose root directory and WAL live on {@code storage}. */
    public static void apply(Configuration conf, EmbeddedStorage storage) {
        if (storage == EmbeddedStorage.LOCAL) {
            // The local file system cannot hflush, so the WAL must not insist on that capability, and only the
            // plain file-system WAL writes to it (the asynchronous one needs HDFS).
            conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
            conf.set("hbase.wal.provider", "filesystem");
        }
        // On HDFS, HBase's defaults apply, as on a production cluster: the asynchronous WAL, hflush and hsync
        // required of the stream.
        // Enough handlers for many concurrent transactional clients on one region server.
        conf.setInt("hbase.regionserver.handler.count", 30);
        // The master sends region opens and closes at once instead of gathering them for 150 ms: creating, dropping
        // and moving a table take about half as long, which tests and benchmarks that make tables feel most.
        conf.setInt("hbase.procedure.remote.dispatcher.delay.msec", 0);
        // A region server whose first report to the master came too early (the master still starting) tries again
        // after this interval rather than HBase's 3 s, which every start of an embedded HBase used to wait out; the
        // region server's periodic load report to the master, on the same interval, costs next to nothing.
        conf.setInt("hbase.regionserver.msginterval", REPORT_INTERVAL_MS);
        // No web UIs: they are not needed and their ports could clash with other processes.
        conf.setInt("hbase.master.info.port", -1);
        conf.setInt("hbase.regionserver.info.port", -1);
    }
}
