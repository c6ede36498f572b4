package io.tidemark.tso.lease;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.zookeeper.MiniZooKeeperCluster;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;

/** A real standalone ZooKeeper server on a free loopback port, for lease tests; no HBase. */
final class TestZooKeeper implements AutoCloseable {

    private final MiniZooKeeperCluster cluster;
    private final File directory;

    private TestZooKeeper(MiniZooKeeperCluster cluster, File directory) {
        this.cluster = cluster;
        this.directory = directory;
    }

    static TestZooKeeper start() throws IOException, InterruptedException {
        File directory = Files.createTempDirectory("tidemark-zk-").toFile();
        MiniZooKeeperCluster cluster = new MiniZooKeeperCluster(new Configuration(false));
        cluster.startup(directory);
        return new TestZooKeeper(cluster, directory);
    }

    String connectString() {
        return "127.0.0.1:" + cluster.getClientPort();
    }

    @Override
    public void close() throws IOException {
        cluster.shutdown();
        org.apache.commons.io.FileUtils.deleteQuietly(directory);
    }
}
