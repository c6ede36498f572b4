package io.tidemark.embedded;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.client.Connection;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A real HBase (ZooKeeper, master, one region server) inside this JVM, on the local file system: HBase's own
 * mini-cluster with {@link EmbeddedHBaseSettings}. Used by the quick start, {@code tidemark server} and the
 * benchmarks; tests use the shared mini-cluster fixture instead.
 */
public final class EmbeddedHBase implements AutoCloseable {

    /** System property HBase's testing utility reads to decide where its data goes. */
    private static final String DATA_DIRECTORY_PROPERTY = "test.build.data.basedirectory";

    private final HBaseTestingUtility utility;
    private final Path dataDirectory;
    private final boolean ownsDataDirectory;

    private EmbeddedHBase(HBaseTestingUtility utility, Path dataDirectory, boolean ownsDataDirectory) {
        this.utility = utility;
        this.dataDirectory = dataDirectory;
        this.ownsDataDirectory = ownsDataDirectory;
    }

    /** Starts HBase with its data in a new temporary directory, deleted again by {@link #close()}. */
    public static EmbeddedHBase start() throws IOException {
        return start(Files.createTempDirectory("tidemark-hbase-"), true);
    }

    /**
     * Starts HBase with its data under {@code dataDirectory} (created if missing). {@link #close()} deletes what
     * HBase wrote there but not the directory itself.
     */
    public static EmbeddedHBase start(Path dataDirectory) throws IOException {
        Files.createDirectories(dataDirectory);
        return start(dataDirectory, false);
    }

    private static EmbeddedHBase start(Path dataDirectory, boolean ownsDataDirectory) throws IOException {
        // The testing utility only takes its base directory from this system property.
        System.setProperty(DATA_DIRECTORY_PROPERTY, dataDirectory.toAbsolutePath().toString());
        Configuration conf = HBaseConfiguration.create();
        EmbeddedHBaseSettings.apply(conf);
        HBaseTestingUtility utility = new HBaseTestingUtility(conf);
        try {
            utility.startMiniZKCluster();
            utility.startMiniHBaseCluster(StartMiniClusterOption.builder().numRegionServers(1).build());
        } catch (Exception e) {
            shutdownQuietly(utility);
            if (ownsDataDirectory) {
                deleteRecursively(dataDirectory);
            }
            throw new IOException("could not start the embedded HBase: " + e.getMessage(), e);
        }
        return new EmbeddedHBase(utility, dataDirectory, ownsDataDirectory);
    }

    /** A connection shared by everything in this JVM; closed by {@link #close()}. */
    public Connection connection() {
        try {
            return utility.getConnection();
        } catch (IOException e) {
            throw new IllegalStateException("the embedded HBase has no connection: " + e.getMessage(), e);
        }
    }

    /** The configuration an HBase client needs to reach this cluster. */
    public Configuration configuration() {
        return utility.getConfiguration();
    }

    /** Value of {@code hbase.zookeeper.quorum} for clients of this cluster. */
    public String zookeeperQuorum() {
        return configuration().get(HConstants.ZOOKEEPER_QUORUM, "localhost");
    }

    /** Value of {@code hbase.zookeeper.property.clientPort} for clients of this cluster. */
    public int zookeeperClientPort() {
        return utility.getZkCluster().getClientPort();
    }

    public Path dataDirectory() {
        return dataDirectory;
    }

    /** Stops HBase and ZooKeeper and removes their data. */
    @Override
    public void close() {
        shutdownQuietly(utility);
        if (ownsDataDirectory) {
            deleteRecursively(dataDirectory);
        }
    }

    private static void shutdownQuietly(HBaseTestingUtility utility) {
        try {
            utility.shutdownMiniCluster();
        } catch (Exception | LinkageError e) {
            // Stopping is best effort: what can fail here only leaves threads of a JVM about to exit behind.
        }
    }

    private static void deleteRecursively(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // A left-over temporary directory is harmless; the OS cleans its temporary directory.
        }
    }
}
