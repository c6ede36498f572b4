package io.tidemark.chaos.processes;

import io.tidemark.chaos.cluster.TsoSetup;
import io.tidemark.chaos.fault.Fault;
import io.tidemark.chaos.fault.FaultKind;
import io.tidemark.chaos.fault.FaultLanes;
import io.tidemark.chaos.scenario.Scenario;
import io.tidemark.chaos.scenario.Scenarios;
import io.tidemark.chaos.workload.OperationMix;
import io.tidemark.config.TidemarkConfig;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The scenarios of the process cluster ({@code ./tidemark chaos --cluster processes}), in the order {@code all} runs
 * them. Every client is a process of its own (3 child JVMs of 2 clients), the TSOs are a pair of processes, and the
 * faults come from lanes ({@link FaultLanes}): partitions, pauses, kills, and the in-process faults that make sense
 * here (region moves, splits, compactions, the sweeper). The commit-record deadline is 3 s (the sweeper's ages 2 and
 * 4 s), so that pauses below, near and above it fit a short run; the TSO request timeout keeps its default.
 */
public final class ProcessScenarios {

    private static final int CHILD_JVMS = 3;
    private static final int THREADS_PER_CHILD = 2;
    private static final OperationMix MIX = new OperationMix(0.25, 0.1, 0.1);
    private static final Map<String, String> SETTINGS = settings();

    private static final List<ProcessFault> PARTITIONS = List.of(ProcessFault.CUT_TSO_FROM_ZOOKEEPER,
            ProcessFault.CUT_TSO_FROM_CLIENTS, ProcessFault.CUT_CLIENT_FROM_TSOS_MID_COMMIT,
            ProcessFault.CUT_REGION_SERVER_FROM_ZOOKEEPER_AND_MASTER, ProcessFault.CUT_CLIENT_FROM_REGION_SERVER);
    private static final List<ProcessFault> PAUSES = List.of(ProcessFault.PAUSE_TSO,
            ProcessFault.PAUSE_REGION_SERVER, ProcessFault.PAUSE_CLIENT_MID_COMMIT);
    private static final List<ProcessFault> STORAGE_KILLS = List.of(ProcessFault.KILL_ZOOKEEPER,
            ProcessFault.KILL_NAMENODE, ProcessFault.KILL_DATANODE);
    private static final List<ProcessFault> HBASE_KILLS = List.of(ProcessFault.KILL_MASTER,
            ProcessFault.KILL_REGION_SERVER);
    private static final List<FaultKind> TSO_AND_CLIENT_KILLS = join(sized(List.of(ProcessFault.KILL_TSO)),
            List.of(Fault.KILL_CLIENT));
    private static final List<FaultKind> REGION_FAULTS = List.of(Fault.MOVE_REGION, Fault.SPLIT_REGION,
            Fault.FLUSH_AND_COMPACT, Fault.SWEEP);

    private static final List<Scenario> ALL = List.of(
            scenario("partitions", "partitions between processes, each below, near and above the timeout it is"
                    + " about, then healed: the active TSO from ZooKeeper (split brain) and from the clients, a"
                    + " client from the TSOs mid-commit, a region server from ZooKeeper and the master, a client"
                    + " from one region server", lane("partitions", sized(PARTITIONS))),
            scenario("pauses", "SIGSTOP, then SIGCONT, below, near and above the timeout it is about: the active"
                    + " TSO (the lease), a region server (the ZooKeeper session), a client mid-commit (the"
                    + " commit-record deadline)", lane("pauses", sized(PAUSES))),
            scenario("kills", "kill -9 and restart of every kind of process: a ZooKeeper server, the NameNode, a"
                    + " DataNode, the master, a region server, the active TSO (the standby takes over), a client"
                    + " mid-commit", lane("ZooKeeper and HDFS kills", sized(STORAGE_KILLS)),
                    lane("HBase kills", sized(HBASE_KILLS)), lane("TSO and client kills", TSO_AND_CLIENT_KILLS)),
            scenario("all-faults", "three lanes at once: partitions and pauses; kills of ZooKeeper, HDFS and HBase"
                    + " servers; kills of TSOs and clients with region moves, splits, compactions and the sweeper:"
                    + " for long runs", lane("partitions and pauses", join(sized(PARTITIONS), sized(PAUSES))),
                    lane("server kills", join(sized(STORAGE_KILLS), sized(HBASE_KILLS))),
                    lane("TSO and client kills and regions", join(TSO_AND_CLIENT_KILLS, REGION_FAULTS))),
            scenario("every-fault", "every fault of all-faults once (one length of each partition and pause), from"
                    + " three lanes with short pauses between faults, then the clients go on without faults: the"
                    + " build's short run, about two minutes", once("partitions and pauses", join(sized(PARTITIONS),
                    sized(PAUSES))), once("ZooKeeper, HDFS, TSO and client kills and regions",
                    join(sized(STORAGE_KILLS), TSO_AND_CLIENT_KILLS, REGION_FAULTS)),
                    once("HBase kills", sized(HBASE_KILLS))));

    private ProcessScenarios() {
    }

    public static List<Scenario> all() {
        return ALL;
    }

    /** The scenario called {@code name}. */
    public static Scenario named(String name) {
        return Scenarios.find(ALL, name, " on the process cluster");
    }

    public static List<String> names() {
        return Scenarios.namesOf(ALL);
    }

    /** How many client slots the cluster needs: every child of a run, and one for a replacement being started. */
    public static int clientSlots() {
        return CHILD_JVMS + 1;
    }

    private static Scenario scenario(String name, String description, FaultLanes.Lane... lanes) {
        return new Scenario(name, description, TsoSetup.PROCESSES_WITH_STANDBY, List.of(), 0, List.of(lanes), 0,
                CHILD_JVMS, THREADS_PER_CHILD, MIX, SETTINGS);
    }

    /** A lane with 2 to 6 s between two faults: the clients work between the faults, not only through them. */
    private static FaultLanes.Lane lane(String name, List<FaultKind> faults) {
        return new FaultLanes.Lane(name, faults, 2000, 6000);
    }

    /** A lane that injects each of its faults once, with 0.5 to 2 s between two: a short run sees every fault. */
    private static FaultLanes.Lane once(String name, List<FaultKind> faults) {
        return new FaultLanes.Lane(name, faults, 500, 2000, 1);
    }

    /**
     * The sweeper's ages (and the 3-s commit-record deadline they imply) and a conflict map of 64 entries, so that
     * evictions raise the low watermark (with 1024, a 10-minute run never raised it: the sweeper rolled nothing
     * back, compaction collected nothing and the watermark check had nothing to check); a lease of 4 s: with the
     * default 2 s, a killed ZooKeeper leader (the ensemble elects a new one in 2 to 3 s on this machine) stopped the
     * active TSO and then the standby that took over, with no TSO serving until a new one had started; a marker
     * margin above the longest pause of a client or a region server here (12 s), as docs/operations.md asks. Clients
     * begin lazily too (every scenario's checked table has the fast path), so that write-only transactions commit in
     * their region without the TSO under partitions, pauses and kills.
     */
    private static Map<String, String> settings() {
        Map<String, String> settings = new HashMap<>(Scenarios.sweeperAges(2000, 4000, 64));
        settings.put(TidemarkConfig.TSO_LEASE_PERIOD_MS.key(), "4000");
        settings.put(TidemarkConfig.SWEEPER_MARKER_MARGIN_MS.key(), "15000");
        return Scenarios.lazyBegin(settings);
    }

    private static List<FaultKind> sized(List<ProcessFault> faults) {
        List<FaultKind> all = new ArrayList<>();
        for (ProcessFault f : faults) {
            all.addAll(SizedFault.everyLengthOf(f));
        }
        return all;
    }

    @SafeVarargs
    private static List<FaultKind> join(List<? extends FaultKind>... lists) {
        List<FaultKind> all = new ArrayList<>();
        for (List<? extends FaultKind> list : lists) {
            all.addAll(list);
        }
        return all;
    }
}
