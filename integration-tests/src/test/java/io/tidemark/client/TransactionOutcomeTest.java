package io.tidemark.client;

import io.tidemark.client.sweeper.CommitTableSweeper;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.table.TableFeature;
import io.tidemark.testing.LatestSnapshot;
import io.tidemark.testing.LowWatermarks;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.StagedFailures;
import io.tidemark.testing.TestCluster;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.util.EnumSet;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link TransactionManager#outcome(long)} settles every transaction an application lost track of, on a real TSO and
 * HBase: committed with its record, committed with its post-commit finished, crashed before its record, still
 * running (settling aborts it), and committed but wrongly invalidated by a reader that died before its undo.
 */
@ExtendWith(SharedTestClusters.class)
// Alone: a sweep refuses while any table that may hold transactional cells is disabled or unmarked, as other
// classes' tables are for moments while they are made or dropped.
@Isolated
class TransactionOutcomeTest {

    private static final byte[] Q = Bytes.toBytes("q");
    private static final AtomicInteger ROWS = new AtomicInteger();

    private static TestCluster cluster;
    private static TableName tableName;

    @BeforeAll
    static void createTable(TestCluster shared) throws IOException {
        cluster = shared;
        tableName = cluster.createTransactionalTable("outcome");
    }

    @AfterAll
    static void dropTable() throws IOException {
        TestCluster.drop(tableName);
    }

    @Test
    void aCommitWhoseRecordStandsIsCommitted() throws IOException {
        byte[] row = row();
        Transaction tx;
        try (TransactionManager dying = StagedFailures.withoutShadowCells(cluster.managerBuilder());
             TTable table = new TTable(TestCluster.connection(), tableName)) {
            tx = dying.begin();
            table.put(tx, new Put(row).addColumn(F, Q, Bytes.toBytes("v")));
            dying.commit(tx);
        }
        assertTrue(cluster.commitTable.lookup(tx.startTimestamp()).isCommitted());

        assertEquals(TransactionOutcome.committed(tx.startTimestamp(), tx.commitTimestamp()),
                cluster.tm.outcome(tx.startTimestamp()));
        assertEquals("v", readCommitted(row));
    }

    @Test
    void aCommitWhosePostCommitFinishedIsCommittedAndLeavesNoMarker() throws IOException {
        byte[] row = row();
        Transaction tx = commit(row, "done");
        assertTrue(cluster.commitTable.lookup(tx.startTimestamp()).isAbsent(), "the post-commit deleted the record");

        assertEquals(TransactionOutcome.committed(tx.startTimestamp(), tx.commitTimestamp()),
                cluster.tm.outcome(tx.startTimestamp()));
        assertTrue(cluster.commitTable.lookup(tx.startTimestamp()).isAbsent(), "its own invalidation was undone");
        assertEquals("done", readCommitted(row));
    }

    @Test
    void aWriterThatCrashedBeforeItsRecordIsAbortedForGood() throws IOException {
        byte[] row = row();
        long start;
        try (TransactionManager crashing = cluster.managerBuilder().build();
             TTable table = new TTable(TestCluster.connection(), tableName)) {
            Transaction tx = crashing.begin();
            table.put(tx, new Put(row).addColumn(F, Q, Bytes.toBytes("never")));
            start = tx.startTimestamp();
        }

        assertEquals(TransactionOutcome.Status.ABORTED, cluster.tm.outcome(start).status());
        assertTrue(cluster.commitTable.lookup(start).isInvalidated());
        assertNull(readCommitted(row));
    }

    @Test
    void settlingARunningWriterAbortsIt() throws IOException {
        byte[] row = row();
        try (TTable table = new TTable(TestCluster.connection(), tableName)) {
            Transaction running = cluster.tm.begin();
            table.put(running, new Put(row).addColumn(F, Q, Bytes.toBytes("running")));

            assertEquals(TransactionOutcome.Status.ABORTED, cluster.tm.outcome(running.startTimestamp()).status());

            TransactionAbortedException e = assertThrows(TransactionAbortedException.class,
                    () -> cluster.tm.commit(running));
            assertEquals(TransactionAbortedException.Reason.INVALIDATED, e.reason());
        }
        assertNull(readCommitted(row));
    }

    @Test
    void aCommittedWriterWronglyInvalidatedByADeadReaderIsCommittedAndTheMarkerUndone() throws IOException {
        byte[] row = row();
        Transaction tx = commit(row, "kept");
        // A reader lost the race with the post-commit, invalidated the finished writer, and died before its undo.
        assertTrue(cluster.commitTable.invalidate(tx.startTimestamp()).isInvalidated());

        assertEquals(TransactionOutcome.committed(tx.startTimestamp(), tx.commitTimestamp()),
                cluster.tm.outcome(tx.startTimestamp()));
        assertTrue(cluster.commitTable.lookup(tx.startTimestamp()).isAbsent(), "the wrong marker is undone");
        assertEquals("kept", readCommitted(row));
    }

    @Test
    void outcomeOfATransactionReadsItsOwnCellsAndAbortsItWhileRunning() throws IOException {
        byte[] row = row();
        Transaction committed = commit(row, "mine");
        assertEquals(TransactionOutcome.committed(committed.startTimestamp(), committed.commitTimestamp()),
                cluster.tm.outcome(committed));
        try (TTable table = new TTable(TestCluster.connection(), tableName)) {
            Transaction running = cluster.tm.begin();
            table.put(running, new Put(row()).addColumn(F, Q, Bytes.toBytes("running")));
            assertEquals(TransactionOutcome.Status.ABORTED, cluster.tm.outcome(running).status());
            assertThrows(TransactionAbortedException.class, () -> cluster.tm.commit(running));
            assertEquals(TransactionOutcome.Status.ABORTED, cluster.tm.outcome(running).status(),
                    "a rolled-back transaction is answered from its state");
        }
    }

    /**
     * A commit whose record was written but whose reply was lost while the commit table became unreachable ends
     * OUTCOME_UNKNOWN. Later the sweeper finishes its post-commit (record gone, shadow cells written); outcome(tx)
     * then finds its shadow cell through its own write set, and the transaction becomes COMMITTED.
     */
    @Test
    void anUnknownOutcomeIsSettledFromTheTransactionsOwnCells() throws Exception {
        // A cluster of its own: the test takes its commit table away and sweeps all of it.
        try (TestCluster own = TestCluster.start("outcome_unknown", CommitMode.LOW_LATENCY)) {
            settlesAnUnknownOutcomeFromItsOwnCells(own, own.createTransactionalTable("unknown"));
        }
    }

    private static void settlesAnUnknownOutcomeFromItsOwnCells(TestCluster cluster, TableName tableName)
            throws Exception {
        byte[] row = row();
        TableName commits = cluster.commitTable.tableName();
        CommitRecordWriter writesThenLosesTheCommitTable = (record, deadline) -> {
            assertTrue(cluster.commitTable.tryCommit(record, deadline));
            try (Admin admin = TestCluster.connection().getAdmin()) {
                admin.disableTable(commits);
            }
            throw new IOException("injected: the reply was lost and the commit table went away");
        };
        try (TransactionManager tm = cluster.managerBuilder().commitRecordWriter(writesThenLosesTheCommitTable)
                .build();
             TTable table = new TTable(TestCluster.connection(), tableName)) {
            Transaction tx = tm.begin();
            table.put(tx, new Put(row).addColumn(F, Q, Bytes.toBytes("unknown")));
            TransactionException unknown = assertThrows(TransactionException.class, () -> tm.commit(tx));
            assertTrue(unknown.getMessage().contains("unknown"), unknown.getMessage());
            assertEquals(TransactionState.OUTCOME_UNKNOWN, tx.state());
            try (Admin admin = TestCluster.connection().getAdmin()) {
                admin.enableTable(commits);
            }
            TidemarkConfig sweepNow = cluster.configWith(
                    config -> config.set(TidemarkConfig.SWEEPER_COMMITTED_AGE_MS, "0"));
            assertEquals(1, new CommitTableSweeper(TestCluster.connection(), sweepNow).sweepAll().completed());
            assertTrue(cluster.commitTable.lookup(tx.startTimestamp()).isAbsent());

            TransactionOutcome outcome = tm.outcome(tx);

            assertTrue(outcome.isCommitted(), outcome.toString());
            assertEquals(TransactionState.COMMITTED, tx.state());
            assertEquals(outcome.commitTimestamp(), tx.commitTimestamp());
            assertTrue(cluster.commitTable.lookup(tx.startTimestamp()).isAbsent(), "the invalidation was undone");
        } finally {
            try (Admin admin = TestCluster.connection().getAdmin()) {
                if (!admin.isTableEnabled(commits)) {
                    admin.enableTable(commits);
                }
            }
        }
        assertEquals("unknown", LatestSnapshot.read(cluster.tm, tableName, row, F, Q));
    }

    /**
     * Once the low watermark has passed a transaction that left nothing behind, nothing tells a commit whose
     * versions compaction removed from an abort: outcome says so instead of guessing. Above the low watermark the
     * same absence proves an abort.
     */
    @Test
    void aTransactionThatLeftNothingIsAbortedAboveTheLowWatermarkAndCollectedBelowIt() throws IOException {
        try (TestCluster own = TestCluster.start("outcome_lwm", CommitMode.LOW_LATENCY, config -> {
            config.set(TidemarkConfig.TSO_LOW_WATERMARK_PERSIST_MS, "20");
            config.set(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES, "8");
        });
             TTable table = new TTable(TestCluster.connection(), own.createTransactionalTable("lwm"))) {
            Transaction rolledBack = own.tm.begin();
            table.put(rolledBack, new Put(row()).addColumn(F, Q, Bytes.toBytes("gone")));
            own.tm.rollback(rolledBack);
            Transaction alsoRolledBack = own.tm.begin();
            table.put(alsoRolledBack, new Put(row()).addColumn(F, Q, Bytes.toBytes("gone")));
            own.tm.rollback(alsoRolledBack);

            assertEquals(TransactionOutcome.Status.ABORTED, own.tm.outcome(rolledBack.startTimestamp()).status());
            LowWatermarks.raiseTo(own, alsoRolledBack.startTimestamp());
            assertEquals(TransactionOutcome.Status.COLLECTED, own.tm.outcome(alsoRolledBack.startTimestamp()).status());
        }
    }

    @Test
    void aBadStartTimestampIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> cluster.tm.outcome(0));
    }

    private static Transaction commit(byte[] row, String value) throws IOException {
        try (TTable table = new TTable(TestCluster.connection(), tableName)) {
            Transaction tx = cluster.tm.begin();
            table.put(tx, new Put(row).addColumn(F, Q, Bytes.toBytes(value)));
            cluster.tm.commit(tx);
            return tx;
        }
    }

    private static String readCommitted(byte[] row) throws IOException {
        return LatestSnapshot.read(cluster.tm, tableName, row, F, Q);
    }

    /** Moved here from SingleRegionCommitTest: outcome() searches every table, so it runs alone. */
    @Test
    void outcomeFindsASingleRegionCommitByItsStartMark() throws Exception {
        TableName table = cluster.createTable("outcome-in-region", EnumSet.of(TableFeature.FAST_PATH));
        try (TransactionManager inRegion = cluster.managerBuilder().config(cluster.configWith(TestCluster.KEPT_WRITES))
                .build();
             TTable t = new TTable(TestCluster.connection(), table)) {
            // The region's first commit teaches it a TSO timestamp; a transaction begun before that commits elsewhere.
            Transaction first = inRegion.begin();
            t.put(first, new Put(row()).addColumn(F, Q, Bytes.toBytes("first")));
            inRegion.commit(first);
            Transaction tx = inRegion.begin();
            t.put(tx, new Put(row()).addColumn(F, Q, Bytes.toBytes("m")));
            inRegion.commit(tx);
            assertTrue(Timestamps.isFastPathVersion(tx.commitTimestamp()), "committed in its region");
            TransactionOutcome outcome = inRegion.outcome(tx.startTimestamp());
            assertTrue(outcome.isCommitted(), "found committed: " + outcome);
            assertEquals(tx.commitTimestamp(), outcome.commitTimestamp());
        } finally {
            TestCluster.drop(table);
        }
    }

    private static byte[] row() {
        return Bytes.toBytes("outcome-" + ROWS.incrementAndGet());
    }
}
