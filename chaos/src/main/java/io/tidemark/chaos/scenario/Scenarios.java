package io.tidemark.chaos.scenario;

import io.tidemark.chaos.cluster.TsoSetup;
import io.tidemark.chaos.fault.Fault;
import io.tidemark.chaos.workload.OperationMix;
import io.tidemark.config.TidemarkConfig;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Every named scenario, in the order {@code --scenario all} runs them. */
public final class Scenarios {

    private static final Map<String, String> LAZY_BEGIN = lazyBegin(Map.of());

    private static final List<Scenario> ALL = List.of(
            new Scenario("baseline", "no faults: generic transactions from threads and a child JVM, scans across"
                    + " regions (one of them always empty), a few long-running readers and slow writers",
                    TsoSetup.IN_PROCESS, List.of(), 0, 3, 1, 2, new OperationMix(0, 0.05, 0.05), Map.of()),
            new Scenario("fast-path", "fast-path gets, puts, deletes, conditional writes, check-and-mutates and"
                    + " increments mixed with generic transactions on the same rows, while the region servers' own"
                    + " reads stall at times between reading a row and resolving its writers", TsoSetup.IN_PROCESS,
                    List.of(Fault.STALL_SERVER_READS), 3000, 3, 1, 2, new OperationMix(0.4, 0.05, 0.05), Map.of()),
            new Scenario("client-kill", "kill -9 of a client JVM the moment one of its clients asks to commit, each"
                    + " replaced by a new one; clients begin lazily (write-only transactions commit in their region"
                    + " without the TSO)", TsoSetup.IN_PROCESS, List.of(Fault.KILL_CLIENT), 2500, 2, 2, 2,
                    new OperationMix(0.2, 0, 0.1), LAZY_BEGIN),
            new Scenario("tso-restart", "the TSO stops and a new incarnation starts on its port, again and again,"
                    + " under long-running readers; lazily begun write-only transactions mixed in",
                    TsoSetup.IN_PROCESS, List.of(Fault.RESTART_TSO), 4000, 3, 1, 2,
                    new OperationMix(0.2, 0.1, 0.05), LAZY_BEGIN),
            new Scenario("tso-failover", "the active TSO process is killed with kill -9 again and again; the"
                    + " standby takes over, clients follow the lease in ZooKeeper, a new standby starts; lazily"
                    + " begun write-only transactions mixed in", TsoSetup.PROCESSES_WITH_STANDBY,
                    List.of(Fault.FAIL_OVER_TSO), 5000, 3, 1, 2, new OperationMix(0.2, 0.05, 0.05), LAZY_BEGIN),
            new Scenario("region-moves", "regions of the checked table and of the commit table move between the two"
                    + " region servers, and split, with the fast path and lazily begun write-only transactions mixed"
                    + " in", TsoSetup.IN_PROCESS,
                    List.of(Fault.MOVE_REGION, Fault.MOVE_REGION, Fault.SPLIT_REGION), 1500, 3, 1, 2,
                    new OperationMix(0.3, 0.05, 0.05), LAZY_BEGIN),
            new Scenario("region-server-abort", "a region server crashes (no flush, no clean close) and a new one"
                    + " replaces it; its regions move to the survivor", TsoSetup.IN_PROCESS,
                    List.of(Fault.ABORT_REGION_SERVER), 6000, 3, 1, 2, new OperationMix(0.2, 0.05, 0.05), Map.of()),
            new Scenario("lost-replies", "for seconds at a time, 5 % of the replies of mutations applied to the"
                    + " commit table and the checked table are lost (HBase re-sends them), and 5 % of the fast-path"
                    + " writes are delivered twice; lazily begun write-only transactions mixed in", TsoSetup.IN_PROCESS,
                    List.of(Fault.LOSE_REPLIES), 3000, 3, 1, 2, new OperationMix(0.3, 0.05, 0.05), LAZY_BEGIN),
            new Scenario("compaction", "flushes and major and minor compactions under long-running readers, while"
                    + " TSO restarts and a small conflict map raise the low watermark, so compaction collects"
                    + " garbage", TsoSetup.IN_PROCESS,
                    List.of(Fault.FLUSH_AND_COMPACT, Fault.FLUSH_AND_COMPACT, Fault.RESTART_TSO), 2000, 3, 1, 2,
                    new OperationMix(0.2, 0.25, 0.05), Map.of(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES.key(), "32")),
            new Scenario("sweeper", "the commit-table sweeper runs every second with ages of a fraction of a second,"
                    + " next to slow writers, readers that invalidate them, and client kills", TsoSetup.IN_PROCESS,
                    List.of(Fault.SWEEP, Fault.SWEEP, Fault.SWEEP, Fault.KILL_CLIENT), 700, 3, 1, 2,
                    new OperationMix(0, 0.05, 0.3), sweeperAges(300, 600, 64)),
            new Scenario("everything", "every fault at once (TSO processes: orderly restarts and kill -9"
                    + " failovers), the fast path and lazily begun write-only transactions mixed in: for long runs",
                    TsoSetup.PROCESSES_WITH_STANDBY, List.of(Fault.values()), 2000, 3, 2, 2,
                    new OperationMix(0.25, 0.1, 0.1), lazyBegin(sweeperAges(1000, 2000, 1024))));

    private Scenarios() {
    }

    /**
     * {@code settings} with lazy begin on ({@code tidemark.client.lazy-begin}): clients also run write-only
     * transactions begun lazily, which commit in their region without any TSO round trip when they can, as a quarter
     * of their short generic transactions.
     */
    public static Map<String, String> lazyBegin(Map<String, String> settings) {
        Map<String, String> withLazyBegin = new HashMap<>(settings);
        withLazyBegin.put(TidemarkConfig.CLIENT_LAZY_BEGIN.key(), "true");
        return Map.copyOf(withLazyBegin);
    }

    /**
     * Sweeper ages for a run, and the settings they need: a commit-record deadline below the invalidated age (clients
     * and TSO then give up a commit-record write that soon, settling by invalidation), a marker margin short enough
     * that a pass does not wait seconds for markers it has found, and a conflict map small enough that evictions
     * raise the low watermark, below which the sweeper may roll invalidated writers back.
     */
    public static Map<String, String> sweeperAges(long committedAgeMs, long invalidatedAgeMs,
                                                  int conflictMapEntries) {
        return Map.of(TidemarkConfig.SWEEPER_COMMITTED_AGE_MS.key(), Long.toString(committedAgeMs),
                TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES.key(), Integer.toString(conflictMapEntries),
                TidemarkConfig.SWEEPER_INVALIDATED_AGE_MS.key(), Long.toString(invalidatedAgeMs),
                TidemarkConfig.CLIENT_COMMIT_RECORD_TIMEOUT_MS.key(), Long.toString(invalidatedAgeMs * 3 / 4),
                TidemarkConfig.SWEEPER_MARKER_MARGIN_MS.key(), "1000");
    }

    public static List<Scenario> all() {
        return ALL;
    }

    /** The scenario called {@code name}. */
    public static Scenario named(String name) {
        return find(ALL, name, "");
    }

    public static List<String> names() {
        return namesOf(ALL);
    }

    /**
     * The scenario of {@code among} called {@code name}; otherwise an {@link IllegalArgumentException} that lists
     * them, saying which they are ({@code where}, e.g. " on the process cluster").
     */
    public static Scenario find(List<Scenario> among, String name, String where) {
        for (Scenario s : among) {
            if (s.name().equals(name)) {
                return s;
            }
        }
        throw new IllegalArgumentException("no scenario '" + name + "'" + where + "; there are: "
                + String.join(", ", namesOf(among)));
    }

    public static List<String> namesOf(List<Scenario> scenarios) {
        List<String> names = new ArrayList<>();
        for (Scenario s : scenarios) {
            names.add(s.name());
        }
        return names;
    }
}
