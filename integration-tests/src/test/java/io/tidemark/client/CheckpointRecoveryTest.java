package io.tidemark.client;

import io.tidemark.client.sweeper.CommitTableSweeper;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.testing.EachCommitMode;
import io.tidemark.testing.LatestSnapshot;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.StagedFailures;
import io.tidemark.testing.TestCluster;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.TableName;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.util.Set;

import static io.tidemark.client.CheckpointCells.Q;
import static io.tidemark.client.CheckpointCells.key;
import static io.tidemark.client.CheckpointCells.put;
import static io.tidemark.client.CheckpointCells.shadowCellVersions;
import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A transaction written in checkpoints whose client died is settled as one transaction: by the sweeper when it had
 * committed, by a reader and {@link TransactionManager#outcome} when it had not. The rest of the checkpoints' story is
 * {@link CheckpointTest}'s, which runs beside other classes.
 */
@ExtendWith(SharedTestClusters.class)
// Alone: a sweep and an outcome refuse while any table that may hold transactional cells is disabled or unmarked, as
// other classes' tables are for moments while they are made or dropped.
@Isolated
class CheckpointRecoveryTest {

    /**
     * A client commits a transaction written only in checkpoints and dies before its shadow cells: the sweeper
     * completes every checkpoint version before removing the one commit record, so no committed write is lost.
     */
    @ParameterizedTest
    @EnumSource(CommitMode.class)
    void aTransactionWhoseClientDiedAfterCommittingCheckpointsIsRecoveredAsOne(CommitMode mode) throws IOException {
        // A cluster of its own: the sweeper takes on every record of its commit table.
        try (TestCluster cluster = TestCluster.start("checkpoint_sweep", mode)) {
            TableName name = cluster.createTable("recovery", Set.of());
            long start;
            try (TransactionManager dying = StagedFailures.withoutShadowCells(cluster.managerBuilder());
                 TTable table = new TTable(TestCluster.connection(), name)) {
                Transaction tx = dying.begin();
                start = tx.startTimestamp();
                tx.checkpoint();
                table.put(tx, put(key(0), "a1"));
                tx.checkpoint();
                table.put(tx, put(key(1), "b2"));
                dying.commit(tx);
            }
            try {
                assertTrue(cluster.commitTable.lookup(start).isCommitted(), "the record stays: no shadow cells yet");
                assertEquals(Set.of(), shadowCellVersions(name));
                // No reader comes first: a reader would heal the shadow cells itself and leave the sweeper nothing
                // to do.
                TidemarkConfig sweeperConfig = cluster.configWith(
                        config -> config.set(TidemarkConfig.SWEEPER_COMMITTED_AGE_MS, "0"));
                new CommitTableSweeper(TestCluster.connection(), sweeperConfig).sweepAll();

                assertTrue(cluster.commitTable.lookup(start).isAbsent(),
                        "the sweeper completed and removed the record");
                assertEquals(Set.of(Timestamps.checkpointVersion(start, 1), Timestamps.checkpointVersion(start, 2)),
                        shadowCellVersions(name));
                assertEquals("a1", LatestSnapshot.read(cluster.tm, name, key(0), F, Q));
                assertEquals("b2", LatestSnapshot.read(cluster.tm, name, key(1), F, Q));
            } finally {
                TestCluster.drop(name);
            }
        }
    }

    /** A client dies before committing: a reader decides all its checkpoints at once, as never committed. */
    @ParameterizedTest
    @EachCommitMode
    void aTransactionWhoseClientDiedBeforeCommittingIsInvisibleInEveryCheckpoint(TestCluster cluster)
            throws IOException {
        TableName name = cluster.createTable("died", Set.of());
        try (TTable table = new TTable(TestCluster.connection(), name)) {
            Transaction load = cluster.tm.begin();
            table.put(load, put(key(0), "committed"));
            cluster.tm.commit(load);
            long start;
            try (TransactionManager dying = cluster.managerBuilder().build()) {
                Transaction tx = dying.begin();
                start = tx.startTimestamp();
                table.put(tx, put(key(0), "a0"));
                tx.checkpoint();
                table.put(tx, put(key(1), "b1"));
            }
            assertEquals("committed", LatestSnapshot.read(cluster.tm, name, key(0), F, Q));
            assertNull(LatestSnapshot.read(cluster.tm, name, key(1), F, Q));
            TransactionOutcome outcome = cluster.tm.outcome(start);
            assertFalse(outcome.isCommitted(), outcome.toString());
        } finally {
            TestCluster.drop(name);
        }
    }
}
