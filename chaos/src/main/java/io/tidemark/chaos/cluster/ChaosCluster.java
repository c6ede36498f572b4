package io.tidemark.chaos.cluster;

import io.tidemark.embedded.ChildJvm;
import io.tidemark.embedded.EmbeddedHBaseSettings;
import io.tidemark.embedded.TsoProcess;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.MiniHBaseCluster;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.regionserver.HRegionServer;
import org.apache.hadoop.hbase.util.JVMClusterUtil;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * HBase's mini-cluster (ZooKeeper, master, {@value #REGION_SERVERS} region servers) in this JVM, on the local file
 * system. Child JVMs reach it through its ZooKeeper. Region servers can be aborted (as if their process crashed) and
 * replaced.
 */
public final class ChaosCluster implements ChaosHBase, AutoCloseable {

    /** Two, so that regions move when one dies or is asked to. */
    public static final int REGION_SERVERS = 2;

    /** System property HBase's testing utility reads to decide where its data goes. */
    private static final String DATA_DIRECTORY_PROPERTY = "test.build.data.basedirectory";
    private static final long SETTLE_TIMEOUT_MS = 120_000;
    private static final String TSO_HEAP = "384m";

    private final HBaseTestingUtility utility;

    private ChaosCluster(HBaseTestingUtility utility) {
        this.utility = utility;
    }

    /** Starts the cluster with its data under {@code dataDirectory} (created if missing). */
    public static ChaosCluster start(Path dataDirectory) throws IOException {
        Files.createDirectories(dataDirectory);
        System.setProperty(DATA_DIRECTORY_PROPERTY, dataDirectory.toAbsolutePath().toString());
        Configuration conf = HBaseConfiguration.create();
        EmbeddedHBaseSettings.apply(conf);
        // Clients give up on an unreachable region after about a minute instead of the default several minutes,
        // so a region server abort shows up as failed operations rather than a stuck run.
        conf.setInt(HConstants.HBASE_CLIENT_RETRIES_NUMBER, 20);
        conf.setInt(HConstants.HBASE_CLIENT_OPERATION_TIMEOUT, 60_000);
        HBaseTestingUtility utility = new HBaseTestingUtility(conf);
        try {
            utility.startMiniZKCluster();
            utility.startMiniHBaseCluster(StartMiniClusterOption.builder().numRegionServers(REGION_SERVERS).build());
        } catch (Exception | LinkageError e) {
            // A LinkageError (a class missing from the classpath) too: what did start must stop, or its threads keep
            // the JVM alive and the next mini-cluster of this JVM cannot install HBase's shutdown hook.
            shutdownQuietly(utility);
            throw new IOException("could not start the HBase mini-cluster: " + e.getMessage(), e);
        }
        return new ChaosCluster(utility);
    }

    @Override
    public Connection connection() {
        try {
            return utility.getConnection();
        } catch (IOException e) {
            throw new IllegalStateException("the mini-cluster has no connection: " + e.getMessage(), e);
        }
    }

    public Configuration configuration() {
        return utility.getConfiguration();
    }

    public HBaseTestingUtility utility() {
        return utility;
    }

    @Override
    public String zookeeperQuorum() {
        return configuration().get(HConstants.ZOOKEEPER_QUORUM, "localhost");
    }

    @Override
    public int zookeeperPort() {
        return utility.getZkCluster().getClientPort();
    }

    @Override
    public String describe() {
        return "HBase mini-cluster in this JVM: ZooKeeper, a master and " + REGION_SERVERS + " region servers";
    }

    @Override
    public String partitionsUnavailable() {
        return "the mini-cluster runs every server in this JVM";
    }

    /** The region servers that are up. */
    @Override
    public List<ServerName> liveServers() {
        List<ServerName> live = new ArrayList<>();
        for (JVMClusterUtil.RegionServerThread t : hbase().getLiveRegionServerThreads()) {
            HRegionServer rs = t.getRegionServer();
            if (!rs.isAborted() && !rs.isStopping() && !rs.isStopped()) {
                live.add(rs.getServerName());
            }
        }
        return live;
    }

    /** Aborts {@code server} as a crash would (no flush, no clean region close) and starts a replacement. */
    @Override
    public synchronized String crashRegionServer(ServerName server) throws IOException {
        for (JVMClusterUtil.RegionServerThread t : hbase().getLiveRegionServerThreads()) {
            if (t.getRegionServer().getServerName().equals(server)) {
                t.getRegionServer().abort("chaos: region server abort");
                restore();
                return "aborted region server " + server + " and started a replacement";
            }
        }
        throw new IllegalArgumentException("no live region server " + server);
    }

    /** Starts region servers until {@value #REGION_SERVERS} are up and waits until every region is assigned. */
    @Override
    public synchronized void restore() throws IOException {
        while (liveServers().size() < REGION_SERVERS) {
            JVMClusterUtil.RegionServerThread started = hbase().startRegionServer();
            started.waitForServerOnline();
        }
        waitUntilSettled();
    }

    /** Waits until no region is in transition (after aborts, moves and splits). */
    @Override
    public void waitUntilSettled() throws IOException {
        utility.waitUntilNoRegionsInTransition(SETTLE_TIMEOUT_MS);
    }

    @Override
    public void flushAndMajorCompact(TableName table) throws IOException {
        utility.flush(table);
        utility.compact(table, true);
    }

    /**
     * A {@code tidemark tso} process with this JVM's classpath, on 127.0.0.1 and a free port, quick to start (a run
     * waits for its active and standby TSO, and a failover for the new standby).
     */
    @Override
    public TsoProcess startTso(String name, Path site, Path log, List<TsoProcess> running) throws IOException {
        return TsoProcess.start(name, ChildJvm.command(TSO_HEAP, ChildJvm.QUICK_START_FLAGS,
                io.tidemark.cli.Main.class.getName(), "tso", "--port", "0", "--hbase-site", site.toString()), log);
    }

    /**
     * A JVM like this one, quick to start (a run's clock waits for its child JVMs, and a replacement of a killed one
     * should work soon): every client process runs on this machine's own network.
     */
    @Override
    public List<String> clientCommand(int slot, String heap, String mainClass, String... args) {
        return ChildJvm.command(heap, ChildJvm.QUICK_START_FLAGS, mainClass, args);
    }

    @Override
    public void close() {
        shutdownQuietly(utility);
    }

    private MiniHBaseCluster hbase() {
        return utility.getMiniHBaseCluster();
    }

    private static void shutdownQuietly(HBaseTestingUtility utility) {
        try {
            utility.shutdownMiniCluster();
        } catch (Exception | LinkageError e) {
            // Stopping is best effort: what can fail here only leaves threads of a JVM about to exit behind.
        }
    }
}
