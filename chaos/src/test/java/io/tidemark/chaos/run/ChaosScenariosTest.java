package io.tidemark.chaos.run;

import io.tidemark.chaos.check.Anomaly;
import io.tidemark.chaos.cluster.ChaosCluster;
import io.tidemark.chaos.scenario.Scenarios;
import io.tidemark.client.PostCommitMode;
import io.tidemark.protocol.CommitMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.parallel.ResourceAccessMode;
import org.junit.jupiter.api.parallel.ResourceLock;

import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The short version of {@code ./tidemark chaos}: every scenario (in one commit mode, both for lost replies; both modes
 * are covered) on one mini-cluster with two region servers, clients in this JVM and in a child JVM, runs until it did
 * what it is for (every kind of fault it has injected, then commits of each kind it mixes in: {@link RunPurpose}), and
 * must end so, without a single anomaly. The checker's own self-test is {@code HistoryCheckerTest}.
 */
// Two scenarios at a time (the module's test.classes.concurrent) once ProcessClusterChaosTest, which runs next to this
// class, is done; one at a time until then: each waits mostly on HBase, its TSO and its child JVMs, and its own tables
// keep it apart from the other. A region-server abort would take a server away under the
// other's regions (its final region moves would fail): a scenario that aborts one holds REGION_SERVERS alone, every
// other scenario shares it.
@Execution(ExecutionMode.CONCURRENT)
class ChaosScenariosTest {

    /** What a scenario that aborts region servers needs alone. */
    static final String REGION_SERVERS = "chaos-region-servers";

    private static final long SEED = Long.getLong("chaos.seed", 20_260_523L);
    /**
     * Each run ends once its purpose is fulfilled, which takes seconds; the limit only makes a run that cannot fulfil
     * it fail instead of hanging (within the default test timeout, with room for the run's set-up and final checks),
     * also on 2 loaded cores shared with ProcessClusterChaosTest's processes. {@code -Dchaos.seconds=N} runs every
     * scenario for N seconds instead.
     */
    private static final RunLength EACH = Integer.getInteger("chaos.seconds") != null
            ? RunLength.fixed(Duration.ofSeconds(Integer.getInteger("chaos.seconds")))
            : RunLength.untilFulfilled(Duration.ofSeconds(180), RunLength.COMMITS_AFTER_FAULTS);
    private static final Path OUTPUT = Path.of("target", "chaos-test");

    private static ChaosCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = ChaosCluster.start(OUTPUT.resolve("hbase"));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** With the product's default post-commit (asynchronous). */
    private static ScenarioResult assertNoAnomaly(String scenario, CommitMode mode) throws Exception {
        return assertNoAnomaly(scenario, mode, PostCommitMode.ASYNC, EACH);
    }

    private static ScenarioResult assertNoAnomaly(String scenario, CommitMode mode, PostCommitMode postCommit,
            RunLength length) throws Exception {
        ScenarioResult result = new ChaosRun(cluster, Scenarios.named(scenario), mode,
                ChaosRun.seedOf(SEED, Scenarios.named(scenario), mode), length,
                OUTPUT.resolve(scenario + "-" + mode.configName() + "-" + postCommit.configName()), postCommit)
                .run();
        String report = ChaosReport.of(result, ChaosSuite.EXPLAINED, true);
        System.out.print(report);
        assertTrue(result.check().transactions() > 0 && result.check().readsChecked() > 0,
                "the scenario ran transactions and checked reads: " + report);
        assertTrue(result.unfulfilled().isEmpty(), "the run did not do what it is for: " + report);
        assertTrue(result.check().clean(), () -> result.check().anomalies().stream().map(Anomaly::toString)
                .limit(ChaosSuite.EXPLAINED).collect(Collectors.joining("\n", report, "")));
        return result;
    }

    @Test
    @ResourceLock(value = REGION_SERVERS, mode = ResourceAccessMode.READ)
    void genericTransactionsKeepSnapshotIsolation() throws Exception {
        assertNoAnomaly("baseline", CommitMode.LOW_LATENCY);
    }

    @Test
    @ResourceLock(value = REGION_SERVERS, mode = ResourceAccessMode.READ)
    void fastPathMixedWithGenericTransactionsKeepsSnapshotIsolation() throws Exception {
        assertNoAnomaly("fast-path", CommitMode.LOW_LATENCY);
    }

    @Test
    @ResourceLock(value = REGION_SERVERS, mode = ResourceAccessMode.READ)
    void clientsKilledMidCommitLoseNothingAndLeaveNothingHalfVisible() throws Exception {
        assertClientsWereKilled(assertNoAnomaly("client-kill", CommitMode.LOW_LATENCY, PostCommitMode.ASYNC,
                EACH));
    }

    /** Clients killed while they write their shadow cells before commit returns: the other post-commit setting. */
    @Test
    @ResourceLock(value = REGION_SERVERS, mode = ResourceAccessMode.READ)
    void clientsKilledDuringSynchronousPostCommitLoseNothing() throws Exception {
        assertClientsWereKilled(assertNoAnomaly("client-kill", CommitMode.LOW_LATENCY, PostCommitMode.SYNC,
                EACH));
    }

    /** A short run must still do what it is named for: its clocks start once the child JVMs work (RunStart). */
    private static void assertClientsWereKilled(ScenarioResult result) {
        assertTrue(result.childJvmsKilled() > 0, "no client JVM was killed during the run");
    }

    @Test
    @ResourceLock(value = REGION_SERVERS, mode = ResourceAccessMode.READ)
    void tsoRestartsKeepSnapshotIsolation() throws Exception {
        assertNoAnomaly("tso-restart", CommitMode.BATCHED);
    }

    @Test
    @ResourceLock(value = REGION_SERVERS, mode = ResourceAccessMode.READ)
    void tsoFailoversKeepSnapshotIsolation() throws Exception {
        assertNoAnomaly("tso-failover", CommitMode.LOW_LATENCY);
    }

    /** Issue 8 item 4: the fast path after a region reopens (fresh timestamps of the region's incarnation). */
    @Test
    @ResourceLock(value = REGION_SERVERS, mode = ResourceAccessMode.READ)
    void regionMovesAndSplitsKeepSnapshotIsolation() throws Exception {
        assertNoAnomaly("region-moves", CommitMode.LOW_LATENCY);
    }

    @Test
    @ResourceLock(REGION_SERVERS)
    void regionServerAbortsLoseNoCommittedWrite() throws Exception {
        assertNoAnomaly("region-server-abort", CommitMode.LOW_LATENCY);
    }

    /** Issue 8 item 1: re-sent commit-record writes (the client's) and fast-path writes never change an outcome. */
    @Test
    @ResourceLock(value = REGION_SERVERS, mode = ResourceAccessMode.READ)
    void lostRepliesNeverChangeAnOutcome() throws Exception {
        assertNoAnomaly("lost-replies", CommitMode.LOW_LATENCY);
    }

    /** Issue 8 item 1: re-sent commit-record writes of the TSO's batches never change an outcome. */
    @Test
    @ResourceLock(value = REGION_SERVERS, mode = ResourceAccessMode.READ)
    void lostRepliesNeverChangeABatchedOutcome() throws Exception {
        assertNoAnomaly("lost-replies", CommitMode.BATCHED);
    }

    @Test
    @ResourceLock(value = REGION_SERVERS, mode = ResourceAccessMode.READ)
    void compactionUnderLongReadersNeverChangesASnapshot() throws Exception {
        assertNoAnomaly("compaction", CommitMode.BATCHED);
    }

    /** Issue 8 item 2: the sweeper settles only proven-decided transactions and never deletes committed data. */
    @Test
    @ResourceLock(value = REGION_SERVERS, mode = ResourceAccessMode.READ)
    void theSweeperNeverDeletesCommittedData() throws Exception {
        assertNoAnomaly("sweeper", CommitMode.LOW_LATENCY);
    }

    /** Every fault at once. */
    @Test
    @ResourceLock(REGION_SERVERS)
    void everythingAtOnceKeepsSnapshotIsolation() throws Exception {
        assertNoAnomaly("everything", CommitMode.LOW_LATENCY);
    }
}
