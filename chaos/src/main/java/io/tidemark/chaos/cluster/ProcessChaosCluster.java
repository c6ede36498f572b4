package io.tidemark.chaos.cluster;

import io.tidemark.embedded.TsoProcess;
import io.tidemark.processcluster.ClusterLayout;
import io.tidemark.processcluster.Member;
import io.tidemark.processcluster.MemberProcess;
import io.tidemark.processcluster.ProcessCluster;
import io.tidemark.processcluster.Role;
import io.tidemark.processcluster.network.ProcessNetwork;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CompactionState;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The process cluster ({@link ProcessCluster}) as a chaos run's cluster: TSOs run on its TSO members, child JVMs
 * on its client members (one per slot), and the faults of {@code io.tidemark.chaos.processes} break its processes
 * and the network between them. This JVM talks to it over a connection of its own, which no fault touches.
 * Faults running side by side take a lock on what they break ({@link #lock}), so that two never act on the same
 * process at once.
 */
public final class ProcessChaosCluster implements ChaosHBase, AutoCloseable {

    private static final long SETTLE_MILLIS = 180_000;
    private static final long TSO_SLOT_WAIT_MILLIS = 30_000;

    private final ProcessCluster processes;
    private final Connection connection;
    private final Map<Member, TsoProcess> tsoSlots = new HashMap<>();
    private final Map<String, ReentrantLock> locks = new ConcurrentHashMap<>();
    /** Kills every process if this JVM is stopped before {@link #close()} (Ctrl-C, a test's timeout). */
    private final Thread killOnExit = new Thread(this::killEverything, "chaos-kill-process-cluster");

    private ProcessChaosCluster(ProcessCluster processes, Connection connection) {
        this.processes = processes;
        this.connection = connection;
        Runtime.getRuntime().addShutdownHook(killOnExit);
    }

    /**
     * Starts the process cluster in {@code directory} on {@code network} with {@code clientSlots} client members, and
     * connects to it.
     */
    public static ProcessChaosCluster start(Path directory, ProcessNetwork network, int clientSlots,
                                            PrintStream progress) throws IOException, InterruptedException {
        ProcessCluster processes = ProcessCluster.start(ClusterLayout.of(clientSlots,
                network.partitionsUnavailable() == null ? io.tidemark.processcluster.PortChooser.USUAL
                        : io.tidemark.processcluster.PortChooser.FREE), network, directory, progress);
        try {
            Configuration conf = processes.clientConfiguration();
            // Operations of this JVM (tables, final reads) outlast any fault of a run, which heals within seconds.
            conf.setInt(HConstants.HBASE_CLIENT_RETRIES_NUMBER, 30);
            return new ProcessChaosCluster(processes, ConnectionFactory.createConnection(conf));
        } catch (IOException | RuntimeException e) {
            processes.close();
            throw e;
        }
    }

    public ProcessCluster processes() {
        return processes;
    }

    /** The lock of {@code target} (a process name, or {@code tso} for the pair of TSOs). */
    public ReentrantLock lock(String target) {
        return locks.computeIfAbsent(target, t -> new ReentrantLock());
    }

    @Override
    public Connection connection() {
        return connection;
    }

    @Override
    public String zookeeperQuorum() {
        return processes.layout().zookeeperQuorum();
    }

    /** Every quorum member names its own port; this one is only HBase's default for entries without one. */
    @Override
    public int zookeeperPort() {
        return processes.layout().ofRole(Role.ZOOKEEPER).get(0).port(ClusterLayout.CLIENT);
    }

    /** The processes, their addresses, how long the start took and how much memory they hold. */
    @Override
    public String describe() {
        StringBuilder s = new StringBuilder("process cluster in " + processes.files().directory() + ": ");
        Map<String, java.time.Duration> phases = processes.startTimes();
        long total = phases.values().stream().mapToLong(java.time.Duration::toMillis).sum();
        s.append(String.format(java.util.Locale.ROOT, "started in %.1f s (%s), %d processes, %.2f GiB resident",
                total / 1000.0, String.join(", ", phases.entrySet().stream().sorted(Map.Entry.comparingByValue())
                        .map(e -> e.getKey() + " " + e.getValue().toMillis() / 1000.0 + " s").toList()),
                processes.running().size(), processes.residentKb() / 1024.0 / 1024.0));
        s.append(System.lineSeparator());
        for (MemberProcess p : processes.running()) {
            s.append(String.format(java.util.Locale.ROOT, "  %-14s %-12s %-24s %4d MiB%n", p.member().name(),
                    p.member().address(), p.member().ports().values(), p.residentKb() / 1024));
        }
        String why = partitionsUnavailable();
        s.append(why == null ? "  partitions: iptables rules in this run's network namespace"
                : "  partitions: NOT RUN (" + why + ")").append(System.lineSeparator());
        return s.toString();
    }

    @Override
    public String partitionsUnavailable() {
        return processes.network().partitionsUnavailable();
    }

    @Override
    public List<ServerName> liveServers() throws IOException {
        try (Admin admin = connection.getAdmin()) {
            return new ArrayList<>(admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS))
                    .getLiveServerMetrics().keySet());
        }
    }

    /** {@code kill -9} of the region server's process, and a restart of it on the same address. */
    @Override
    public String crashRegionServer(ServerName server) throws IOException, InterruptedException {
        Member member = regionServerAt(server.getHostname());
        processes.kill(member.name());
        processes.restart(member.name());
        awaitServing(Service.HBASE);
        return "killed " + member.name() + " (kill -9) and started it again";
    }

    /** The region server member whose address is {@code host}. */
    public Member regionServerAt(String host) {
        for (Member m : processes.layout().ofRole(Role.REGION_SERVER)) {
            if (m.address().equals(host)) {
                return m;
            }
        }
        throw new IllegalArgumentException("no region server at " + host);
    }

    /**
     * Heals every partition, resumes every paused server, starts every server that is down again, and waits until
     * ZooKeeper, HDFS and HBase serve with every process and no region is in transition.
     */
    @Override
    public void restore() throws IOException, InterruptedException {
        processes.network().healAll();
        for (MemberProcess p : processes.running()) {
            if (p.paused()) {
                p.resume();
            }
        }
        awaitServing(Service.values());
        waitUntilSettled();
    }

    /** What a fault waits for after it broke something. */
    public enum Service {
        /** Every ZooKeeper server serves, one of them the leader. */
        ZOOKEEPER,
        /** The NameNode is out of safe mode with every DataNode live. */
        HDFS,
        /** The master serves with every region server. */
        HBASE
    }

    /**
     * Waits until {@code services} serve with every process, starting again every server that died (by a fault, or
     * by itself: a region server whose ZooKeeper session expired aborts) and that no fault holds. Faults running side
     * by side wait here, so a server another fault broke does not fail them; whoever sees it dead first starts it.
     */
    public void awaitServing(Service... services) throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + SETTLE_MILLIS;
        while (true) {
            for (Member dead : processes.deadServers()) {
                ReentrantLock held = lock(dead.name());
                if (held.tryLock()) {
                    try {
                        MemberProcess p = processes.process(dead.name());
                        if (p == null || !p.isAlive()) {
                            processes.restart(dead.name());
                        }
                    } finally {
                        held.unlock();
                    }
                }
            }
            if (serve(services)) {
                return;
            }
            if (System.currentTimeMillis() > deadline) {
                throw new IOException("the cluster did not serve again within " + SETTLE_MILLIS / 1000
                        + " s; see " + processes.files().directory().resolve("logs"));
            }
            Thread.sleep(500);
        }
    }

    private boolean serve(Service... services) {
        for (Service service : services) {
            boolean serves = switch (service) {
                case ZOOKEEPER -> processes.zooKeeperServes();
                case HDFS -> processes.hdfsServes();
                case HBASE -> processes.hbaseServes();
            };
            if (!serves) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void waitUntilSettled() throws IOException, InterruptedException {
        long deadline = System.currentTimeMillis() + SETTLE_MILLIS;
        try (Admin admin = connection.getAdmin()) {
            while (!admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.REGIONS_IN_TRANSITION))
                    .getRegionStatesInTransition().isEmpty()) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IOException("regions still in transition after " + SETTLE_MILLIS / 1000 + " s");
                }
                Thread.sleep(250);
            }
        }
    }

    @Override
    public void flushAndMajorCompact(TableName table) throws IOException, InterruptedException {
        try (Admin admin = connection.getAdmin()) {
            admin.flush(table);
            admin.majorCompact(table);
            long deadline = System.currentTimeMillis() + SETTLE_MILLIS;
            // The request is queued; the state says NONE until a region server picks it up, so wait for that too.
            Thread.sleep(1000);
            while (admin.getCompactionState(table) != CompactionState.NONE) {
                if (System.currentTimeMillis() > deadline) {
                    throw new IOException("the major compaction of " + table + " did not end within "
                            + SETTLE_MILLIS / 1000 + " s");
                }
                Thread.sleep(250);
            }
        }
    }

    /**
     * A TSO on a TSO member no running TSO of the run holds (waiting a while for one that lost its lease to exit,
     * then killing it: it was superseded anyway).
     */
    @Override
    public synchronized TsoProcess startTso(String name, Path site, Path log, List<TsoProcess> running)
            throws IOException {
        Member slot = freeTsoSlot(running);
        TsoProcess tso = TsoProcess.start(name + " on " + slot.name(), processes.tsoCommand(slot, site), log);
        tsoSlots.put(slot, tso);
        return tso;
    }

    /** The member a TSO process of the run runs as. */
    public synchronized Member memberOf(TsoProcess tso) {
        for (Map.Entry<Member, TsoProcess> e : tsoSlots.entrySet()) {
            if (e.getValue() == tso) {
                return e.getKey();
            }
        }
        throw new IllegalArgumentException(tso + " is not a TSO of this cluster");
    }

    @Override
    public List<String> clientCommand(int slot, String heap, String mainClass, String... args) throws IOException {
        return processes.clientCommand(clientMember(slot), heap, mainClass, List.of(args));
    }

    /** The client member of slot {@code slot}. */
    public Member clientMember(int slot) {
        List<Member> clients = processes.layout().ofRole(Role.CLIENT);
        if (slot >= clients.size()) {
            throw new IllegalStateException("client slot " + slot + " asked for, but the cluster has "
                    + clients.size() + " client members");
        }
        return clients.get(slot);
    }

    /** Kills every process (the cluster's and the run's TSOs) and removes the network's rules. */
    @Override
    public void close() {
        try {
            connection.close();
        } catch (IOException e) {
            // The cluster goes away next.
        }
        killEverything();
        try {
            Runtime.getRuntime().removeShutdownHook(killOnExit);
        } catch (IllegalStateException e) {
            // The JVM is stopping: the hook runs and finds nothing left.
        }
    }

    private void killEverything() {
        List<TsoProcess> tsos;
        synchronized (this) {
            tsos = new ArrayList<>(tsoSlots.values());
        }
        for (TsoProcess tso : tsos) {
            try {
                tso.killHard();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        processes.close();
    }

    private Member freeTsoSlot(List<TsoProcess> running) throws IOException {
        long deadline = System.currentTimeMillis() + TSO_SLOT_WAIT_MILLIS;
        while (true) {
            for (Member m : processes.layout().ofRole(Role.TSO)) {
                TsoProcess holder = tsoSlots.get(m);
                if (holder == null || holder.exit().isDone() || !running.contains(holder)) {
                    if (holder != null && !holder.exit().isDone()) {
                        kill(holder);
                    }
                    return m;
                }
            }
            if (System.currentTimeMillis() > deadline) {
                TsoProcess oldest = running.get(0);
                kill(oldest);
                return memberOf(oldest);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for a free TSO member", e);
            }
        }
    }

    private static void kill(TsoProcess tso) throws IOException {
        try {
            tso.killHard();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while killing " + tso, e);
        }
    }
}
