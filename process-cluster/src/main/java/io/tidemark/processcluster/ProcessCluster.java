package io.tidemark.processcluster;

import io.tidemark.processcluster.network.ProcessNetwork;
import io.tidemark.tso.monitoring.TsoRole;
import io.tidemark.tso.monitoring.TsoStatus;
import org.apache.hadoop.conf.Configuration;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/**
 * A pseudo-distributed HBase cluster of real processes on this machine ({@link ClusterLayout}): started in order
 * (ZooKeeper quorum, HDFS out of safe mode with every DataNode, HBase with every region server), each process on its
 * own address in the {@link ProcessNetwork}, every one of them breakable on its own: killed, restarted, paused,
 * resumed, cut off from another. TSOs and clients are started on request, with the settings of whoever runs them.
 */
public final class ProcessCluster implements AutoCloseable {

    /** How long one kind of process may take to serve after its start. */
    private static final Duration READY_TIMEOUT = Duration.ofMinutes(3);

    private final ClusterLayout layout;
    private final ProcessNetwork network;
    private final ClusterFiles files;
    private final ClusterConfiguration configuration;
    private final MemberCommands commandLines;
    private final Map<String, MemberProcess> processes = new ConcurrentHashMap<>();
    private final Map<String, List<String>> commands = new ConcurrentHashMap<>();
    private final Map<String, Duration> startTimes = new LinkedHashMap<>();

    private ProcessCluster(ClusterLayout layout, ProcessNetwork network, ClusterFiles files,
                           ServerClasspath classpath) {
        this.layout = layout;
        this.network = network;
        this.files = files;
        this.configuration = new ClusterConfiguration(layout, files);
        this.commandLines = new MemberCommands(files, classpath, network);
    }

    /**
     * Writes the configuration into {@code directory} (which must be new or empty), starts ZooKeeper, HDFS and HBase,
     * and returns once HBase serves with every region server. Progress goes to {@code progress}. On failure, every
     * process started is killed.
     */
    public static ProcessCluster start(ClusterLayout layout, ProcessNetwork network, Path directory,
                                       PrintStream progress) throws IOException, InterruptedException {
        ProcessCluster cluster = new ProcessCluster(layout, network, new ClusterFiles(directory),
                ServerClasspath.ofThisBuild());
        try {
            cluster.startServers(progress);
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    private void startServers(PrintStream progress) throws IOException, InterruptedException {
        configuration.writeAll();
        long since = System.nanoTime();
        progress.println("Starting ZooKeeper (" + layout.zookeeperQuorum() + ")...");
        for (Member zk : layout.ofRole(Role.ZOOKEEPER)) {
            launch(zk);
        }
        awaitZooKeeper();
        since = phase("zookeeper", since);
        Member namenode = layout.ofRole(Role.NAMENODE).get(0);
        progress.println("Starting HDFS (" + layout.fileSystemUri() + ", " + ClusterLayout.DATANODES
                + " DataNodes)...");
        formatNameNode(namenode);
        launch(namenode);
        for (Member dn : layout.ofRole(Role.DATANODE)) {
            launch(dn);
        }
        awaitHdfs();
        since = phase("hdfs", since);
        progress.println("Starting HBase (master and " + ClusterLayout.REGION_SERVERS + " region servers)...");
        launch(layout.ofRole(Role.MASTER).get(0));
        for (Member rs : layout.ofRole(Role.REGION_SERVER)) {
            launch(rs);
        }
        awaitHBase();
        phase("hbase", since);
    }

    public ClusterLayout layout() {
        return layout;
    }

    public ProcessNetwork network() {
        return network;
    }

    public ClusterFiles files() {
        return files;
    }

    /** The {@code hbase-site.xml} applications use: the ZooKeeper quorum. */
    public Path clientSite() {
        return files.clientSite();
    }

    /** The client settings of {@link #clientSite()}, on top of HBase's defaults. */
    public Configuration clientConfiguration() {
        Configuration conf = org.apache.hadoop.hbase.HBaseConfiguration.create();
        conf.addResource(new org.apache.hadoop.fs.Path(clientSite().toUri()));
        return conf;
    }

    /** How long each start phase took ({@code zookeeper}, {@code hdfs}, {@code hbase}, {@code tsos}). */
    public synchronized Map<String, Duration> startTimes() {
        return Map.copyOf(startTimes);
    }

    /**
     * Starts the TSO {@code tso} ({@code tidemark tso}) against this cluster with {@code settings} (its
     * {@code tidemark.*} settings), its output in its log.
     */
    public MemberProcess startTso(Member tso, Map<String, String> settings) throws IOException {
        Configuration conf = new Configuration(false);
        settings.forEach(conf::set);
        Path site = files.confOf(tso).resolve("run-hbase-site.xml");
        Files.createDirectories(site.getParent());
        ClusterConfiguration.write(clientAnd(conf), site);
        MemberProcess process = MemberProcess.start(tso, commandLines.tso(tso, site), files.logOf(tso));
        processes.put(tso.name(), process);
        return process;
    }

    /**
     * The command line of {@code tidemark tso} as the TSO {@code tso}, with this JVM's classpath, reading
     * {@code hbaseSite} (the cluster's quorum and the run's {@code tidemark.*} settings), then its own address and
     * ports, which win.
     */
    public List<String> tsoCommand(Member tso, Path hbaseSite) throws IOException {
        return commandLines.tso(tso, hbaseSite);
    }

    private Configuration clientAnd(Configuration settings) {
        Configuration conf = configuration.client();
        for (Map.Entry<String, String> e : settings) {
            conf.set(e.getKey(), e.getValue());
        }
        return conf;
    }

    /**
     * Starts both TSOs with {@code settings} and waits until one serves and the other stands by; returns the one that
     * serves.
     */
    public Member startTsos(Map<String, String> settings) throws IOException, InterruptedException {
        long since = System.nanoTime();
        for (Member tso : layout.ofRole(Role.TSO)) {
            startTso(tso, settings);
        }
        await("a TSO to serve and the other to stand by", () -> {
            int active = 0;
            int standby = 0;
            for (Member tso : layout.ofRole(Role.TSO)) {
                TsoStatus status = Readiness.tso(tso);
                if (status != null && status.role() == TsoRole.ACTIVE) {
                    active++;
                } else if (status != null && status.role() == TsoRole.STANDBY) {
                    standby++;
                }
            }
            return active == 1 && standby == layout.ofRole(Role.TSO).size() - 1;
        }, layout.ofRole(Role.TSO));
        phase("tsos", since);
        return activeTso();
    }

    /** The TSO that says it serves; null when none does. */
    public Member activeTso() {
        for (Member tso : layout.ofRole(Role.TSO)) {
            TsoStatus status = Readiness.tso(tso);
            if (status != null && status.role() == TsoRole.ACTIVE) {
                return tso;
            }
        }
        return null;
    }

    /**
     * The command line that runs {@code mainClass} with this JVM's classpath as the client process {@code client}:
     * for whoever starts client processes and keeps their handles.
     */
    public List<String> clientCommand(Member client, String heap, String mainClass, List<String> args)
            throws IOException {
        return commandLines.client(client, heap, mainClass, args);
    }

    /** The running process of {@code member}; null when it was never started, or killed and not restarted. */
    public MemberProcess process(String member) {
        return processes.get(member);
    }

    /** {@code kill -9} of {@code member}. */
    public void kill(String member) throws InterruptedException {
        MemberProcess p = processes.get(member);
        if (p != null) {
            p.kill();
        }
    }

    /** Starts {@code member} (a ZooKeeper, HDFS or HBase server) again, with the command it was first started with. */
    public MemberProcess restart(String member) throws IOException {
        MemberProcess running = processes.get(member);
        if (running != null && running.isAlive()) {
            throw new IllegalStateException(member + " still runs (pid " + running.pid() + ")");
        }
        return launch(layout.member(member));
    }

    /** The ZooKeeper, HDFS and HBase servers that are not running (killed, or exited by themselves). */
    public List<Member> deadServers() {
        List<Member> dead = new ArrayList<>();
        for (Member m : layout.members()) {
            MemberProcess p = processes.get(m.name());
            if (m.role() != Role.TSO && m.role() != Role.CLIENT && (p == null || !p.isAlive())) {
                dead.add(m);
            }
        }
        return dead;
    }

    /** Resident memory of every running process, in KiB. */
    public long residentKb() {
        long total = 0;
        for (MemberProcess p : processes.values()) {
            total += p.residentKb();
        }
        return total;
    }

    /** Every process that runs now. */
    public List<MemberProcess> running() {
        List<MemberProcess> running = new ArrayList<>();
        for (MemberProcess p : processes.values()) {
            if (p.isAlive()) {
                running.add(p);
            }
        }
        return running;
    }

    /** Waits until the ZooKeeper ensemble has a leader and every member serves. */
    public void awaitZooKeeper() throws IOException, InterruptedException {
        await("the ZooKeeper ensemble to elect a leader", this::zooKeeperServes, layout.ofRole(Role.ZOOKEEPER));
    }

    /** Waits until the NameNode is out of safe mode with every DataNode live. */
    public void awaitHdfs() throws IOException, InterruptedException {
        List<Member> watched = new ArrayList<>(layout.ofRole(Role.DATANODE));
        watched.addAll(layout.ofRole(Role.NAMENODE));
        await("HDFS to leave safe mode with " + ClusterLayout.DATANODES + " live DataNodes", this::hdfsServes,
                watched);
    }

    /** Waits until the master serves with every region server and {@code hbase:meta} online. */
    public void awaitHBase() throws IOException, InterruptedException {
        List<Member> watched = new ArrayList<>(layout.ofRole(Role.REGION_SERVER));
        watched.addAll(layout.ofRole(Role.MASTER));
        await("HBase to serve with " + ClusterLayout.REGION_SERVERS + " region servers", this::hbaseServes, watched);
    }

    /** Whether every ZooKeeper server serves, one of them the leader. */
    public boolean zooKeeperServes() {
        int leaders = 0;
        for (Member zk : layout.ofRole(Role.ZOOKEEPER)) {
            String mode = Readiness.zookeeperMode(zk);
            if (mode == null) {
                return false;
            }
            leaders += mode.equals("leader") ? 1 : 0;
        }
        return leaders == 1;
    }

    /** Whether the NameNode is out of safe mode with every DataNode live. */
    public boolean hdfsServes() {
        return Readiness.liveDataNodes(layout.ofRole(Role.NAMENODE).get(0)) == ClusterLayout.DATANODES;
    }

    /** Whether the master serves with every region server and {@code hbase:meta} online. */
    public boolean hbaseServes() {
        return Readiness.liveRegionServers(clientConfiguration()) == ClusterLayout.REGION_SERVERS;
    }

    /** Kills every process (SIGKILL; a paused one too) and releases the network. */
    @Override
    public void close() {
        for (MemberProcess p : processes.values()) {
            try {
                p.kill();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        processes.clear();
        network.close();
    }

    private MemberProcess launch(Member member) throws IOException {
        List<String> command = commands.computeIfAbsent(member.name(), n -> commandLines.server(member));
        MemberProcess process = MemberProcess.start(member, network.launch(member, command), files.logOf(member));
        processes.put(member.name(), process);
        return process;
    }

    private void formatNameNode(Member namenode) throws IOException, InterruptedException {
        MemberProcess format = MemberProcess.start(namenode, network.launch(namenode,
                commandLines.formatNameNode(namenode)), files.logOf(namenode));
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (format.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        if (format.isAlive() || format.exitCode() != 0) {
            format.kill();
            throw new IOException("formatting the NameNode failed; see " + files.logOf(namenode));
        }
    }

    private void await(String what, BooleanSupplier ready, List<Member> watched) throws IOException,
            InterruptedException {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (!ready.getAsBoolean()) {
            for (Member m : watched) {
                MemberProcess p = processes.get(m.name());
                if (p != null && !p.isAlive()) {
                    throw new IOException(m.name() + " exited (code " + p.exitCode() + ") while waiting for " + what
                            + "; see " + files.logOf(m));
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("timed out after " + READY_TIMEOUT.toSeconds() + " s waiting for " + what
                        + "; see the logs in " + files.logOf(watched.get(0)).getParent());
            }
            Thread.sleep(250);
        }
    }

    private synchronized long phase(String name, long since) {
        long now = System.nanoTime();
        startTimes.put(name, Duration.ofNanos(now - since));
        return now;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "process cluster in %s (%d processes)", files.directory(), processes.size());
    }
}
