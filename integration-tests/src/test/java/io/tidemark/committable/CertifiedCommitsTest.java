package io.tidemark.committable;

import io.tidemark.certificate.DecisionKey;
import io.tidemark.certificate.Seal;
import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionAbortedException;
import io.tidemark.client.TransactionManager;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.testing.HeldCommitRecords;
import io.tidemark.testing.LostConflict;
import io.tidemark.testing.TestCluster;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 32 §3: only the TSO's decisions reach the commit table. Every application may write the commit table in
 * low-latency mode; these tests write it as a buggy or hostile one would, through a plain HBase connection, and prove
 * that the commit-record guard lets in only what a TSO sealed, while every legitimate path (commits in both modes,
 * post-commit, region servers' and the sweeper's removals) still works.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class CertifiedCommitsTest {

    private static final byte[] Q = Bytes.toBytes("q");
    /** Clusters whose commit tables carry the guard, which checks seals (docs/security.md). */
    private static final Map<CommitMode, TestCluster> CLUSTERS = new EnumMap<>(CommitMode.class);

    @AfterAll
    static void stop() {
        CLUSTERS.values().forEach(TestCluster::close);
    }

    private static synchronized TestCluster cluster(CommitMode mode) throws IOException {
        TestCluster cluster = CLUSTERS.get(mode);
        if (cluster == null) {
            cluster = TestCluster.start("certified", mode,
                    config -> config.set(TidemarkConfig.COMMIT_TABLE_GUARD, "true"));
            CLUSTERS.put(mode, cluster);
        }
        return cluster;
    }

    @ParameterizedTest
    @EnumSource(CommitMode.class)
    void transactionsCommitAndTheirRecordsAreReleasedInBothModes(CommitMode mode) throws Exception {
        TestCluster cluster = cluster(mode);
        TableName data = cluster.createTransactionalTable("legit");
        byte[] row = Bytes.toBytes("row");
        Transaction tx = cluster.tm.begin();
        try (TTable t = new TTable(TestCluster.connection(), data)) {
            t.put(tx, new Put(row).addColumn(F, Q, Bytes.toBytes("v")));
        }
        cluster.tm.commit(tx);
        assertTrue(cluster.commitTable.lookup(tx.startTimestamp()).isAbsent(),
                "the post-commit released the record with the TSO's token");
    }

    /** A client cannot commit a start timestamp it never began: no TSO certified the record. */
    @Test
    void aCommitRecordWithoutTheTsosCertificateIsRefused() throws Exception {
        TestCluster cluster = cluster(CommitMode.LOW_LATENCY);
        long start = cluster.tm.begin().startTimestamp();
        try (Table raw = commitTable(cluster)) {
            IOException refused = assertThrows(IOException.class, () -> raw.put(new Put(cluster.commitTable.schema()
                    .rowKey(start)).addColumn(CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER,
                    Bytes.toBytes(start + Timestamps.TSO_STEP))));
            assertTrue(CommitTableSchema.isUnentitledRemoval(refused), refused.toString());
        }
        assertTrue(cluster.commitTable.lookup(start).isAbsent());
    }

    /**
     * A transaction the TSO aborted for a conflict cannot be committed by writing its record, neither with a
     * certificate of another transaction nor with one made up.
     */
    @Test
    void aTransactionTheTsoAbortedCannotBeCommittedByItsClient() throws Exception {
        TestCluster cluster = cluster(CommitMode.LOW_LATENCY);
        TableName data = cluster.createTransactionalTable("conflict");
        byte[] row = Bytes.toBytes("row");
        HeldCommitRecords held = new HeldCommitRecords(cluster.commitTable);
        LostConflict conflict;
        try (TransactionManager holding = cluster.managerBuilder().commitRecordWriter(held).build();
             TTable t = new TTable(TestCluster.connection(), data)) {
            conflict = LostConflict.between(holding, held, cluster.tm, t, row, F, Q);
        }
        CommitRecord winnersRecord = conflict.winnersRecord();
        long start = conflict.loser().startTimestamp();
        long commit = winnersRecord.commitTimestamp() + Timestamps.TSO_STEP;
        try (Table raw = commitTable(cluster)) {
            byte[] key = cluster.commitTable.schema().rowKey(start);
            byte[] borrowed = Bytes.add(Bytes.toBytes(commit), winnersRecord.certificate().encode());
            assertThrows(IOException.class, () -> raw.put(new Put(key).addColumn(CommitTableSchema.FAMILY,
                    CommitTableSchema.COMMIT_QUALIFIER, borrowed)));
            byte[] madeUp = Bytes.add(Bytes.toBytes(commit), new byte[Seal.BYTES]);
            assertThrows(IOException.class, () -> raw.put(new Put(key).addColumn(CommitTableSchema.FAMILY,
                    CommitTableSchema.COMMIT_QUALIFIER, madeUp)));
        }
        assertTrue(cluster.commitTable.lookup(start).isAbsent(), "the aborted transaction stays uncommitted");
    }

    /**
     * A commit record may only go once its committer (holding the release token) or the sweeper is done: removed
     * early, before every shadow cell is written, it would take the commit with it.
     */
    @Test
    void aCommitRecordCannotBeRemovedWithoutItsReleaseToken() throws Exception {
        TestCluster cluster = cluster(CommitMode.LOW_LATENCY);
        DecisionKey key = keyOf(cluster);
        long start = cluster.tm.begin().startTimestamp();
        long commit = start + Timestamps.TSO_STEP;
        CommitRecord record = new CommitRecord(start, commit, Durability.USE_DEFAULT,
                key.commitCertificate(start, commit), key.releaseToken(start));
        assertTrue(new HBaseCommitTable(TestCluster.connection(), new CommitTableSettings(cluster.config))
                .tryCommit(record), "a record the TSO sealed is let in");
        try (Table raw = commitTable(cluster)) {
            byte[] row = cluster.commitTable.schema().rowKey(start);
            assertThrows(IOException.class, () -> raw.delete(new Delete(row)));
            Delete othersToken = new Delete(row);
            othersToken.setAttribute(CommitTableSchema.RELEASE_ATTRIBUTE, key.releaseToken(start + 1).encode());
            assertThrows(IOException.class, () -> raw.delete(othersToken));
            Delete unmarkToken = new Delete(row);
            unmarkToken.setAttribute(CommitTableSchema.RELEASE_ATTRIBUTE, key.unmarkToken(start).encode());
            assertThrows(IOException.class, () -> raw.delete(unmarkToken), "an unmark token removes markers only");
        }
        assertEquals(commit, cluster.commitTable.lookup(start).commitTimestamp());
        new HBaseCommitTable(TestCluster.connection(), new CommitTableSettings(cluster.config)).release(record);
        assertTrue(cluster.commitTable.lookup(start).isAbsent(), "its token releases it");
    }

    /**
     * An invalidation marker keeps a writer from committing below a snapshot that already skipped it: removing it
     * would let the writer commit under that reader. Only region servers and the sweeper may remove one.
     */
    @Test
    void anInvalidationMarkerCannotBeRemovedWithoutAnUnmarkToken() throws Exception {
        TestCluster cluster = cluster(CommitMode.LOW_LATENCY);
        TableName data = cluster.createTransactionalTable("marker");
        byte[] row = Bytes.toBytes("row");
        Transaction writer = cluster.tm.begin();
        try (TTable t = new TTable(TestCluster.connection(), data)) {
            t.put(writer, new Put(row).addColumn(F, Q, Bytes.toBytes("pending")));
        }
        HBaseCommitTable application = new HBaseCommitTable(TestCluster.connection(),
                new CommitTableSettings(cluster.config));
        assertTrue(application.invalidate(writer.startTimestamp()).isInvalidated(), "anyone may invalidate");
        try (Table raw = commitTable(cluster)) {
            assertThrows(IOException.class, () -> raw.delete(new Delete(cluster.commitTable.schema()
                    .rowKey(writer.startTimestamp()))));
        }
        application.undoInvalidation(writer.startTimestamp());
        assertTrue(cluster.commitTable.lookup(writer.startTimestamp()).isInvalidated(),
                "an application's undo without the keys leaves the marker");
        TransactionAbortedException aborted = assertThrows(TransactionAbortedException.class,
                () -> cluster.tm.commit(writer));
        assertEquals(TransactionAbortedException.Reason.INVALIDATED, aborted.reason());
        cluster.commitTable.undoInvalidation(writer.startTimestamp());
        assertTrue(cluster.commitTable.lookup(writer.startTimestamp()).isAbsent(), "the keys' unmark token removes it");
    }

    @Test
    void theLowWatermarkRisesOnlyWithTheTsosCertificateAndTheLayoutRowIsWrittenOnce() throws Exception {
        TestCluster cluster = cluster(CommitMode.LOW_LATENCY);
        long before = cluster.commitTable.readLowWatermark();
        try (Table raw = commitTable(cluster)) {
            assertThrows(IOException.class, () -> raw.put(new Put(CommitTableSchema.LOW_WATERMARK_ROW).addColumn(
                    CommitTableSchema.FAMILY, CommitTableSchema.LOW_WATERMARK_QUALIFIER, Bytes.toBytes(Long.MAX_VALUE))),
                    "a raised watermark would abort every running transaction");
            assertThrows(IOException.class, () -> raw.delete(new Delete(CommitTableSchema.LOW_WATERMARK_ROW)));
            assertThrows(IOException.class, () -> raw.put(new Put(CommitTableSchema.LAYOUT_ROW).addColumn(
                    CommitTableSchema.FAMILY, CommitTableSchema.BUCKETS_QUALIFIER, Bytes.toBytes("7"))));
            assertThrows(IOException.class, () -> raw.delete(new Delete(CommitTableSchema.LAYOUT_ROW)));
            assertArrayEquals(Bytes.toBytes(String.valueOf(new CommitTableSettings(cluster.config).buckets())),
                    raw.get(new Get(CommitTableSchema.LAYOUT_ROW)).getValue(CommitTableSchema.FAMILY,
                            CommitTableSchema.BUCKETS_QUALIFIER));
        }
        assertEquals(before, cluster.commitTable.readLowWatermark());
        long raised = cluster.tm.begin().startTimestamp();
        cluster.commitTable.raiseLowWatermark(raised);
        assertEquals(raised, cluster.commitTable.readLowWatermark(), "the keys' certificate raises it");
    }

    private static Table commitTable(TestCluster cluster) throws IOException {
        return TestCluster.connection().getTable(cluster.commitTable.tableName());
    }

    /** The serving TSO's key, as region servers and the sweeper read it. */
    private static DecisionKey keyOf(TestCluster cluster) throws IOException {
        DecisionKey key = new TimestampTableKeys(TestCluster.connection(), cluster.config.get(TidemarkConfig.TIMESTAMP_TABLE)).newest();
        assertNotNull(key, "the TSO recorded its key");
        return key;
    }
}
