package io.tidemark.chaos.processes;

import io.tidemark.chaos.child.ChildClients;
import io.tidemark.chaos.cluster.ProcessChaosCluster;
import io.tidemark.chaos.cluster.ProcessChaosCluster.Service;
import io.tidemark.chaos.cluster.TsoProcesses;
import io.tidemark.chaos.fault.FaultTarget;
import io.tidemark.embedded.TsoProcess;
import io.tidemark.processcluster.Member;
import io.tidemark.processcluster.MemberProcess;
import io.tidemark.processcluster.ProcessCluster;
import io.tidemark.processcluster.Role;
import io.tidemark.processcluster.Signals;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * The faults that only exist between processes, on the process cluster ({@link ProcessChaosCluster}): partitions
 * (cut, wait, heal), pauses (SIGSTOP, wait, SIGCONT) and {@code kill -9} with a restart. A partition or pause lasts a
 * {@link Length} of the {@link Timeout} it is about; the run picks the length ({@link SizedFault}). Each fault holds
 * the lock of what it breaks ({@link ProcessChaosCluster#lock}) from start to heal, and leaves what it broke serving
 * again, or says what it left.
 */
public enum ProcessFault {

    /** The active TSO loses ZooKeeper but not its clients: the split brain leases exist for. */
    CUT_TSO_FROM_ZOOKEEPER("cut the active TSO off from ZooKeeper", Timeout.LEASE, true, Lock.TSO) {
        @Override
        String inject(Faults f, Random random, long millis) throws Exception {
            TsoProcess tso = f.tsos().serving();
            Member member = f.cluster().memberOf(tso);
            List<Member> zookeepers = f.processes().layout().ofRole(Role.ZOOKEEPER);
            f.cut(member, zookeepers, millis);
            return "cut " + tso + " off from " + names(zookeepers) + " for " + millis + " ms; healed; "
                    + f.tsoAfter(tso);
        }
    },

    /** The active TSO keeps its lease, but no client reaches it: BEGINs wait, COMMITs time out and are settled. */
    CUT_TSO_FROM_CLIENTS("cut the active TSO off from the client processes", Timeout.TSO_REQUEST, true,
            Lock.TSO) {
        @Override
        String inject(Faults f, Random random, long millis) throws Exception {
            TsoProcess tso = f.tsos().serving();
            List<Member> clients = f.processes().layout().ofRole(Role.CLIENT);
            f.cut(f.cluster().memberOf(tso), clients, millis);
            return "cut " + tso + " off from every client process for " + millis + " ms; healed; " + f.tsoAfter(tso);
        }
    },

    /** A client loses both TSOs between asking to commit and hearing the answer. */
    CUT_CLIENT_FROM_TSOS_MID_COMMIT("cut a client process off from the TSOs mid-commit", Timeout.COMMIT_RECORD,
            true, Lock.NONE) {
        @Override
        String inject(Faults f, Random random, long millis) throws Exception {
            Optional<ChildClients.ClientProcess> client = f.children().awaitMidCommit(random);
            if (client.isEmpty()) {
                return "no client process runs";
            }
            Member member = f.cluster().clientMember(client.get().slot());
            f.cut(member, f.processes().layout().ofRole(Role.TSO), millis);
            return "cut " + describe(client.get(), member) + " off from the TSOs for " + millis + " ms; healed";
        }
    },

    /** A region server loses ZooKeeper and the master while clients still reach it. */
    CUT_REGION_SERVER_FROM_ZOOKEEPER_AND_MASTER("cut a region server off from ZooKeeper and the master",
            Timeout.ZOOKEEPER_SESSION, true, Lock.NONE) {
        @Override
        String inject(Faults f, Random random, long millis) throws Exception {
            Member rs = pick(f.processes().layout().ofRole(Role.REGION_SERVER), random);
            List<Member> others = new ArrayList<>(f.processes().layout().ofRole(Role.ZOOKEEPER));
            others.addAll(f.processes().layout().ofRole(Role.MASTER));
            f.lockAnd(rs.name(), () -> f.cut(rs, others, millis));
            return "cut " + rs.name() + " off from " + names(others) + " for " + millis + " ms; healed; "
                    + f.serverAfter(rs);
        }
    },

    /** One client loses one region server only. */
    CUT_CLIENT_FROM_REGION_SERVER("cut a client process off from one region server", Timeout.NONE, true,
            Lock.NONE) {
        @Override
        String inject(Faults f, Random random, long millis) throws Exception {
            Optional<ChildClients.ClientProcess> client = f.children().awaitMidCommit(random);
            if (client.isEmpty()) {
                return "no client process runs";
            }
            Member member = f.cluster().clientMember(client.get().slot());
            Member rs = pick(f.processes().layout().ofRole(Role.REGION_SERVER), random);
            f.lockAnd(rs.name(), () -> f.cut(member, List.of(rs), millis));
            return "cut " + describe(client.get(), member) + " off from " + rs.name() + " for " + millis
                    + " ms; healed";
        }
    },

    /** SIGSTOP of the active TSO, as a long GC pause: it wakes up believing it still holds its lease. */
    PAUSE_TSO("pause the active TSO", Timeout.LEASE, false, Lock.TSO) {
        @Override
        String inject(Faults f, Random random, long millis) throws Exception {
            TsoProcess tso = f.tsos().serving();
            Signals.stop(tso.pid());
            try {
                Thread.sleep(millis);
            } finally {
                Signals.resume(tso.pid());
            }
            return "paused " + tso + " for " + millis + " ms; " + f.tsoAfter(tso);
        }
    },

    /** SIGSTOP of a region server: its ZooKeeper session may expire while it sleeps. */
    PAUSE_REGION_SERVER("pause a region server", Timeout.ZOOKEEPER_SESSION, false, Lock.NONE) {
        @Override
        String inject(Faults f, Random random, long millis) throws Exception {
            Member rs = pick(f.processes().layout().ofRole(Role.REGION_SERVER), random);
            f.lockAnd(rs.name(), () -> {
                MemberProcess p = f.processes().process(rs.name());
                if (p == null || !p.isAlive()) {
                    return;
                }
                p.pause();
                try {
                    Thread.sleep(millis);
                } finally {
                    p.resume();
                }
            });
            return "paused " + rs.name() + " for " + millis + " ms; " + f.serverAfter(rs);
        }
    },

    /** SIGSTOP of a client between asking to commit and hearing the answer: its commit record comes late. */
    PAUSE_CLIENT_MID_COMMIT("pause a client process mid-commit", Timeout.COMMIT_RECORD, false, Lock.NONE) {
        @Override
        String inject(Faults f, Random random, long millis) throws Exception {
            Optional<ChildClients.ClientProcess> client = f.children().awaitMidCommit(random);
            if (client.isEmpty()) {
                return "no client process runs";
            }
            long pid = client.get().process().pid();
            Signals.stop(pid);
            try {
                Thread.sleep(millis);
            } finally {
                if (client.get().process().isAlive()) {
                    Signals.resume(pid);
                }
            }
            return "paused " + describe(client.get(), f.cluster().clientMember(client.get().slot())) + " for "
                    + millis + " ms";
        }
    },

    KILL_ZOOKEEPER("kill -9 a ZooKeeper server, then restart it", null, false, Lock.NONE) {
        @Override
        String inject(Faults f, Random random, long millis) throws Exception {
            return f.killAndRestart(Role.ZOOKEEPER, random, 3000, Service.ZOOKEEPER);
        }
    },

    KILL_NAMENODE("kill -9 the HDFS NameNode, then restart it", null, false, Lock.NONE) {
        @Override
        String inject(Faults f, Random random, long millis) throws Exception {
            return f.killAndRestart(Role.NAMENODE, random, 3000, Service.HDFS);
        }
    },

    /** A DataNode of every WAL pipeline goes away, longer than it takes to be marked stale. */
    KILL_DATANODE("kill -9 a DataNode, then restart it", null, false, Lock.NONE) {
        @Override
        String inject(Faults f, Random random, long millis) throws Exception {
            return f.killAndRestart(Role.DATANODE, random, 8000, Service.HDFS);
        }
    },

    KILL_MASTER("kill -9 the HMaster, then restart it", null, false, Lock.NONE) {
        @Override
        String inject(Faults f, Random random, long millis) throws Exception {
            return f.killAndRestart(Role.MASTER, random, 3000, Service.HBASE);
        }
    },

    KILL_REGION_SERVER("kill -9 a region server, then restart it", null, false, Lock.NONE) {
        @Override
        String inject(Faults f, Random random, long millis) throws Exception {
            return f.killAndRestart(Role.REGION_SERVER, random, 3000, Service.HBASE);
        }
    },

    /** The active TSO dies; the standby takes over and a new standby starts. */
    KILL_TSO("kill -9 the active TSO", null, false, Lock.TSO) {
        @Override
        String inject(Faults f, Random random, long millis) throws Exception {
            return f.tsos().failover();
        }
    };

    private final String description;
    private final Timeout timeout;
    private final boolean partition;
    private final Lock lock;

    ProcessFault(String description, Timeout timeout, boolean partition, Lock lock) {
        this.description = description;
        this.timeout = timeout;
        this.partition = partition;
        this.lock = lock;
    }

    public String description() {
        return description;
    }

    /** The timeout its length is measured against; null for a kill, which has no length. */
    public Timeout timeout() {
        return timeout;
    }

    /** Whether it cuts processes apart, which only works inside a network namespace. */
    public boolean partition() {
        return partition;
    }

    /** Injects it once, for {@code millis} ms where it has a length. */
    String inject(FaultTarget target, Random random, long millis) throws Exception {
        Faults faults = new Faults(target);
        if (lock == Lock.NONE) {
            return inject(faults, random, millis);
        }
        return faults.lockAnd(Lock.TSO.name(), () -> inject(faults, random, millis));
    }

    abstract String inject(Faults f, Random random, long millis) throws Exception;

    /** What a fault holds locked for all its length, besides the servers it locks once it picked them. */
    private enum Lock {
        /** Nothing for all its length: it locks the server it picks (none for a client). */
        NONE,
        /** The pair of TSOs: which one is active changes under a fault that acts on them. */
        TSO
    }

    private static Member pick(List<Member> members, Random random) {
        return members.get(random.nextInt(members.size()));
    }

    private static String names(List<Member> members) {
        return String.join(", ", members.stream().map(Member::name).toList());
    }

    private static String describe(ChildClients.ClientProcess client, Member member) {
        return "child JVM " + client.number() + " (" + member.name() + ", pid " + client.process().pid()
                + (client.midCommit() ? ", mid-commit" : ", none of its clients was committing") + ")";
    }

    /** How long past its ZooKeeper session a region server is watched: it aborts only once it reaches ZooKeeper. */
    private static final long AFTER_SESSION_MILLIS = 3000;

    /** What the faults act on, with the steps they share. */
    static final class Faults {

        private final FaultTarget target;

        Faults(FaultTarget target) {
            this.target = target;
        }

        ProcessChaosCluster cluster() {
            if (!(target.cluster() instanceof ProcessChaosCluster c)) {
                throw new IllegalStateException("faults between processes need the process cluster");
            }
            return c;
        }

        ProcessCluster processes() {
            return cluster().processes();
        }

        TsoProcesses tsos() {
            if (!(target.tso() instanceof TsoProcesses t)) {
                throw new IllegalStateException("TSO faults need TSO processes");
            }
            return t;
        }

        ChildClients children() {
            return target.children();
        }

        /** Cuts {@code a} off from every one of {@code others} for {@code millis}, then heals. */
        void cut(Member a, List<Member> others, long millis) throws IOException, InterruptedException {
            try {
                for (Member b : others) {
                    processes().network().cut(a, b);
                }
                Thread.sleep(millis);
            } finally {
                for (Member b : others) {
                    processes().network().heal(a, b);
                }
            }
        }

        /** Runs {@code action} holding the lock of {@code name}. */
        <T> T lockAnd(String name, Step<T> action) throws Exception {
            var lock = cluster().lock(name);
            lock.lockInterruptibly();
            try {
                return action.run();
            } finally {
                lock.unlock();
            }
        }

        void lockAnd(String name, VoidStep action) throws Exception {
            lockAnd(name, () -> {
                action.run();
                return null;
            });
        }

        /**
         * Which TSO serves after a fault to {@code before}: after a lease's length, by when a TSO that lost its lease
         * has stopped and a standby taken over.
         */
        String tsoAfter(TsoProcess before) throws IOException, InterruptedException {
            Thread.sleep(Timeout.LEASE.millis(target.config()));
            TsoProcess now = tsos().serving();
            return now == before ? before + " still serves" : now + " serves now (" + before
                    + (before.exit().isDone() ? " exited with code " + before.exit().getNow(-1) : " still runs")
                    + ")";
        }

        /**
         * Whether {@code server} survived, watched for a ZooKeeper session's length (a region server learns that its
         * session expired only when it reaches ZooKeeper again); starts it again when it did not, and waits until
         * HBase serves.
         */
        String serverAfter(Member server) throws Exception {
            MemberProcess before = processes().process(server.name());
            boolean restarted = lockAnd(server.name(), () -> {
                MemberProcess p = processes().process(server.name());
                long deadline = System.currentTimeMillis() + Timeout.ZOOKEEPER_SESSION.millis(target.config())
                        + AFTER_SESSION_MILLIS;
                while (p != null && p.isAlive() && System.currentTimeMillis() < deadline) {
                    Thread.sleep(200);
                }
                if (p != null && p.isAlive()) {
                    return false;
                }
                processes().restart(server.name());
                return true;
            });
            if (!restarted) {
                return server.name() + " survived";
            }
            cluster().awaitServing(Service.HBASE);
            return server.name() + " had exited (code " + (before == null ? "?" : before.exitCode())
                    + "): started it again";
        }

        /**
         * {@code kill -9} of a process of {@code role} picked at random, a wait of 1 s to {@code maxDownMillis}, a
         * restart, and a wait until {@code service} (what the process is part of) serves again.
         */
        String killAndRestart(Role role, Random random, long maxDownMillis, Service service) throws Exception {
            Member m = pick(processes().layout().ofRole(role), random);
            long down = 1000 + random.nextInt((int) Math.max(1, maxDownMillis - 1000));
            long since = System.nanoTime();
            lockAnd(m.name(), () -> {
                processes().kill(m.name());
                Thread.sleep(down);
                processes().restart(m.name());
            });
            cluster().awaitServing(service);
            return "killed " + m.name() + ", restarted it after " + down + " ms; " + service + " serves again "
                    + (System.nanoTime() - since) / 1_000_000 + " ms after the kill";
        }
    }

    /** A step that returns something. */
    @FunctionalInterface
    interface Step<T> {
        T run() throws Exception;
    }

    /** A step that returns nothing. */
    @FunctionalInterface
    interface VoidStep {
        void run() throws Exception;
    }

}
