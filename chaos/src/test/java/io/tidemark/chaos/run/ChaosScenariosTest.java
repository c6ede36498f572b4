package io.tidemark.chaos.run;

import io.tidemark.chaos.check.Anomaly;
import io.tidemark.chaos.cluster.ChaosCluster;
import io.tidemark.chaos.scenario.Scenarios;
import io.tidemark.client.PostCommitMode;
import io.tidemark.protocol.CommitMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The short version of {@code ./tidemark chaos}: every scenario runs for a few seconds (in one commit mode, both for
 * lost replies; both modes are covered) on one mini-cluster with two region servers, clients in this JVM and in a
 * child JVM, and must end without a single anomaly. The checker's own self-test is {@code HistoryCheckerTest}.
 */
class ChaosScenariosTest {

    private static final long SEED = Long.getLong("chaos.seed", 20_260_523L);
    private static final Duration EACH = Duration.ofSeconds(Integer.getInteger("chaos.seconds", 6));
    /**
     * The client-kill runs: a kill waits up to 5 s for a client of its victim to ask to commit, and on a loaded machine
     * child JVMs need seconds for their first commits, so 6 s could end before any kill landed.
     */
    private static final Duration KILLING = EACH.compareTo(Duration.ofSeconds(12)) < 0 ? Duration.ofSeconds(12) : EACH;
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
            Duration length) throws Exception {
        ScenarioResult result = new ChaosRun(cluster, Scenarios.named(scenario), mode,
                ChaosRun.seedOf(SEED, Scenarios.named(scenario), mode), length,
                OUTPUT.resolve(scenario + "-" + mode.configName() + "-" + postCommit.configName()), postCommit)
                .run();
        String report = ChaosReport.of(result, ChaosSuite.EXPLAINED, true);
        System.out.print(report);
        assertTrue(result.check().transactions() > 0 && result.check().readsChecked() > 0,
                "the scenario ran transactions and checked reads: " + report);
        assertTrue(result.check().clean(), () -> result.check().anomalies().stream().map(Anomaly::toString)
                .limit(ChaosSuite.EXPLAINED).collect(Collectors.joining("\n", report, "")));
        return result;
    }

    @Test
    void genericTransactionsKeepSnapshotIsolation() throws Exception {
        assertNoAnomaly("baseline", CommitMode.LOW_LATENCY);
    }

    @Test
    void fastPathMixedWithGenericTransactionsKeepsSnapshotIsolation() throws Exception {
        assertNoAnomaly("fast-path", CommitMode.LOW_LATENCY);
    }

    @Test
    void clientsKilledMidCommitLoseNothingAndLeaveNothingHalfVisible() throws Exception {
        assertClientsWereKilled(assertNoAnomaly("client-kill", CommitMode.LOW_LATENCY, PostCommitMode.ASYNC,
                KILLING));
    }

    /** Clients killed while they write their shadow cells before commit returns: the other post-commit setting. */
    @Test
    void clientsKilledDuringSynchronousPostCommitLoseNothing() throws Exception {
        assertClientsWereKilled(assertNoAnomaly("client-kill", CommitMode.LOW_LATENCY, PostCommitMode.SYNC,
                KILLING));
    }

    /** A short run must still do what it is named for: its clocks start once the child JVMs work (RunStart). */
    private static void assertClientsWereKilled(ScenarioResult result) {
        assertTrue(result.childJvmsKilled() > 0, "no client JVM was killed during the run");
    }

    @Test
    void tsoRestartsKeepSnapshotIsolation() throws Exception {
        assertNoAnomaly("tso-restart", CommitMode.BATCHED);
    }

    @Test
    void tsoFailoversKeepSnapshotIsolation() throws Exception {
        assertNoAnomaly("tso-failover", CommitMode.LOW_LATENCY);
    }

    /** Issue 8 item 4: the fast path after a region reopens (fresh timestamps of the region's incarnation). */
    @Test
    void regionMovesAndSplitsKeepSnapshotIsolation() throws Exception {
        assertNoAnomaly("region-moves", CommitMode.LOW_LATENCY);
    }

    @Test
    void regionServerAbortsLoseNoCommittedWrite() throws Exception {
        assertNoAnomaly("region-server-abort", CommitMode.LOW_LATENCY);
    }

    /** Issue 8 item 1: re-sent commit-record writes (the client's) and fast-path writes never change an outcome. */
    @Test
    void lostRepliesNeverChangeAnOutcome() throws Exception {
        assertNoAnomaly("lost-replies", CommitMode.LOW_LATENCY);
    }

    /** Issue 8 item 1: re-sent commit-record writes of the TSO's batches never change an outcome. */
    @Test
    void lostRepliesNeverChangeABatchedOutcome() throws Exception {
        assertNoAnomaly("lost-replies", CommitMode.BATCHED);
    }

    @Test
    void compactionUnderLongReadersNeverChangesASnapshot() throws Exception {
        assertNoAnomaly("compaction", CommitMode.BATCHED);
    }

    /** Issue 8 item 2: the sweeper settles only proven-decided transactions and never deletes committed data. */
    @Test
    void theSweeperNeverDeletesCommittedData() throws Exception {
        assertNoAnomaly("sweeper", CommitMode.LOW_LATENCY);
    }

    /** Every fault at once. */
    @Test
    void everythingAtOnceKeepsSnapshotIsolation() throws Exception {
        assertNoAnomaly("everything", CommitMode.LOW_LATENCY);
    }
}
