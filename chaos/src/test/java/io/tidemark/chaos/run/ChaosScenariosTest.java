package io.tidemark.chaos.run;

import io.tidemark.chaos.check.Anomaly;
import io.tidemark.chaos.cluster.ChaosCluster;
import io.tidemark.chaos.scenario.Scenarios;
import io.tidemark.protocol.CommitMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The short version of {@code ./tidemark chaos}: every scenario runs for a few seconds on one mini-cluster with two
 * region servers, clients in this JVM and in a child JVM, and must end without a single anomaly. A scenario whose
 * underlying bug is not fixed yet carries the tag {@value #UNFIXED} and is left out of the default run (see the
 * surefire configuration of this module); run those too with {@code -Dchaos.excluded.groups=none}. The checker's own self-test is
 * {@code HistoryCheckerTest}, which always runs.
 */
class ChaosScenariosTest {

    /** Tag of scenarios that still find anomalies on main: their fixes have not landed. */
    static final String UNFIXED = "unfixed";

    private static final long SEED = Long.getLong("chaos.seed", 20_260_523L);
    private static final Duration EACH = Duration.ofSeconds(Integer.getInteger("chaos.seconds", 8));
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

    private static void assertNoAnomaly(String scenario, CommitMode mode) throws Exception {
        ScenarioResult result = new ChaosRun(cluster, Scenarios.named(scenario), mode,
                ChaosRun.seedOf(SEED, Scenarios.named(scenario), mode), EACH,
                OUTPUT.resolve(scenario + "-" + mode.configName())).run();
        String report = ChaosReport.of(result, ChaosSuite.EXPLAINED, true);
        System.out.print(report);
        assertTrue(result.check().transactions() > 0 && result.check().readsChecked() > 0,
                "the scenario ran transactions and checked reads: " + report);
        assertTrue(result.check().clean(), () -> result.check().anomalies().stream().map(Anomaly::toString)
                .limit(ChaosSuite.EXPLAINED).collect(Collectors.joining("\n", report, "")));
    }

    @Test
    @Tag(UNFIXED)
    void baselineLowLatencyKeepsSnapshotIsolation() throws Exception {
        assertNoAnomaly("baseline", CommitMode.LOW_LATENCY);
    }

    @Test
    @Tag(UNFIXED)
    void baselineBatchedKeepsSnapshotIsolation() throws Exception {
        assertNoAnomaly("baseline", CommitMode.BATCHED);
    }

    @Test
    @Tag(UNFIXED)
    void fastPathMixedWithGenericTransactionsKeepsSnapshotIsolation() throws Exception {
        assertNoAnomaly("fast-path", CommitMode.LOW_LATENCY);
    }

    @Test
    @Tag(UNFIXED)
    void clientsKilledMidCommitLoseNothingAndLeaveNothingHalfVisible() throws Exception {
        assertNoAnomaly("client-kill", CommitMode.LOW_LATENCY);
    }

    @Test
    @Tag(UNFIXED)
    void tsoRestartsKeepSnapshotIsolation() throws Exception {
        assertNoAnomaly("tso-restart", CommitMode.BATCHED);
    }

    @Test
    @Tag(UNFIXED)
    void regionMovesAndSplitsKeepSnapshotIsolation() throws Exception {
        assertNoAnomaly("region-moves", CommitMode.LOW_LATENCY);
    }

    @Test
    @Tag(UNFIXED)
    void regionServerAbortsLoseNoCommittedWrite() throws Exception {
        assertNoAnomaly("region-server-abort", CommitMode.LOW_LATENCY);
    }

    @Test
    @Tag(UNFIXED)
    void lostRepliesNeverChangeAnOutcomeLowLatency() throws Exception {
        assertNoAnomaly("lost-replies", CommitMode.LOW_LATENCY);
    }

    @Test
    @Tag(UNFIXED)
    void lostRepliesNeverChangeAnOutcomeBatched() throws Exception {
        assertNoAnomaly("lost-replies", CommitMode.BATCHED);
    }

    @Test
    @Tag(UNFIXED)
    void compactionUnderLongReadersNeverChangesASnapshot() throws Exception {
        assertNoAnomaly("compaction", CommitMode.LOW_LATENCY);
    }

    @Test
    @Tag(UNFIXED)
    void theSweeperNeverDeletesCommittedData() throws Exception {
        assertNoAnomaly("sweeper", CommitMode.LOW_LATENCY);
    }
}
