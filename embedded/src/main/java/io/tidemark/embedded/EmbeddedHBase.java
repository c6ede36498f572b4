package io.tidemark.embedded;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.util.CommonFSUtils;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A real HBase (ZooKeeper, master, one region server) inside this JVM, with its root directory and WAL on the local
 * file system or on HBase's mini-DFS ({@link EmbeddedStorage}): HBase's own mini-cluster with
 * {@link EmbeddedHBaseSettings}. Used by the quick start, {@code tidemark server} and the benchmarks; tests use the
 * shared mini-cluster fixture instead.
 */
public final class EmbeddedHBase implements AutoCloseable {

    /** System property HBase's testing utility reads to decide where its data goes. */
    private static final String DATA_DIRECTORY_PROPERTY = "test.build.data.basedirectory";

    private final HBaseTestingUtility utility;
    private final Path dataDirectory;
    private final boolean ownsDataDirectory;
    private final EmbeddedStorage storage;

    private EmbeddedHBase(HBaseTestingUtility utility, Path dataDirectory, boolean ownsDataDirectory,
                          EmbeddedStorage storage) {
        this.utility = utility;
        this.dataDirectory = dataDirectory;
        this.ownsDataDirectory = ownsDataDirectory;
        this.storage = storage;
    }

    /** Starts HBase on the local file system with its data in a new temporary directory (see {@link #close()}). */
    public static EmbeddedHBase start() throws IOException {
        return start(EmbeddedStorage.LOCAL);
    }

    /** Starts HBase on {@code storage} with its data in a new temporary directory, deleted again by {@link #close()}. */
    public static EmbeddedHBase start(EmbeddedStorage storage) throws IOException {
        return start(Files.createTempDirectory("tidemark-hbase-"), true, storage);
    }

    /** Starts HBase on the local file system with its data under {@code dataDirectory} (see below). */
    public static EmbeddedHBase start(Path dataDirectory) throws IOException {
        return start(dataDirectory, EmbeddedStorage.LOCAL);
    }

    /**
     * Starts HBase on {@code storage} with its data (and, for HDFS, the NameNode's and DataNode's) under
     * {@code dataDirectory} (created if missing). {@link #close()} deletes what HBase wrote there but not the
     * directory itself.
     */
    public static EmbeddedHBase start(Path dataDirectory, EmbeddedStorage storage) throws IOException {
        Files.createDirectories(dataDirectory);
        return start(dataDirectory, false, storage);
    }

    private static EmbeddedHBase start(Path dataDirectory, boolean ownsDataDirectory, EmbeddedStorage storage)
            throws IOException {
        // The testing utility only takes its base directory from this system property.
        System.setProperty(DATA_DIRECTORY_PROPERTY, dataDirectory.toAbsolutePath().toString());
        Configuration conf = HBaseConfiguration.create();
        EmbeddedHBaseSettings.apply(conf, storage);
        HBaseTestingUtility utility = new HBaseTestingUtility(conf);
        try {
            if (storage == EmbeddedStorage.HDFS) {
                // As HBase's own default mini-cluster does: the DFS comes first and becomes the default file
                // system, so the root directory and the WAL (which lives under it) are created on it.
                utility.startMiniDFSCluster(1);
            }
            utility.startMiniZKCluster();
            utility.startMiniHBaseCluster(StartMiniClusterOption.builder().numRegionServers(1).build());
        } catch (Exception | LinkageError e) {
            // A LinkageError (a class missing from the classpath) too: what did start must stop, or its threads keep
            // the JVM alive and the next mini-cluster of this JVM cannot install HBase's shutdown hook.
            shutdownQuietly(utility);
            if (ownsDataDirectory) {
                deleteRecursively(dataDirectory);
            }
            throw new IOException("could not start the embedded HBase: " + e.getMessage(), e);
        }
        return new EmbeddedHBase(utility, dataDirectory, ownsDataDirectory, storage);
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

    public EmbeddedStorage storage() {
        return storage;
    }

    /** HBase's root directory ({@code hbase.rootdir}), fully qualified: {@code hdfs://...} on HDFS. */
    public URI rootDirectory() {
        try {
            return CommonFSUtils.getRootDir(configuration()).toUri();
        } catch (IOException e) {
            throw new IllegalStateException("the embedded HBase has no root directory: " + e.getMessage(), e);
        }
    }

    /** The directory HBase writes its WALs under ({@code hbase.wal.dir}, the root directory unless set). */
    public URI walDirectory() {
        try {
            return CommonFSUtils.getWALRootDir(configuration()).toUri();
        } catch (IOException e) {
            throw new IllegalStateException("the embedded HBase has no WAL directory: " + e.getMessage(), e);
        }
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
