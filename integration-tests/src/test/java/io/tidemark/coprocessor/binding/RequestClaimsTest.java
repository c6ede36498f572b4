package io.tidemark.coprocessor.binding;

import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.fastpath.FastPathTable;
import io.tidemark.committable.CommitTableSettings;
import io.tidemark.gc.SnapshotTooOldException;
import io.tidemark.protocol.CommitMode;
import io.tidemark.table.TableFeature;
import io.tidemark.testing.HostileRequests;
import io.tidemark.testing.InMode;
import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.TestCluster;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.util.EnumSet;
import java.util.concurrent.TimeUnit;

import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 32: a region server takes nothing a request claims as given. Each test sends what a hostile client with read
 * access to a transactional table (and write access to a table of its own) can send, over a plain HBase connection,
 * and proves the region server refuses it before acting on it with its own credentials.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
@ExtendWith(SharedTestClusters.class)
class RequestClaimsTest {

    private static final byte[] Q = Bytes.toBytes("q");

    /**
     * The snapshot attribute named the commit table, and the region server took it: a reader that wrote a "commit
     * record" for a pending writer into a table of its own made the region server commit the writer and heal its
     * shadow cell into the data table.
     */
    @Test
    void aReadNamingAnotherCommitTableCannotCommitAPendingWriter(TestCluster cluster) throws Exception {
        TableName data = cluster.createTransactionalTable("forged");
        byte[] row = Bytes.toBytes("row");
        Transaction writer = cluster.tm.begin();
        try (TTable t = new TTable(TestCluster.connection(), data)) {
            t.put(writer, new Put(row).addColumn(F, Q, Bytes.toBytes("never committed")));
        }
        TableName forged = cluster.createPlainTable("forged_commits", 1);
        int buckets = new CommitTableSettings(cluster.config).buckets();
        long start = writer.startTimestamp();
        try (Table forgedTable = TestCluster.connection().getTable(forged)) {
            HostileRequests.forgeCommitRecord(forgedTable, buckets, start, start + Timestamps.TSO_STEP);
        }

        long readerStart = cluster.tm.begin().startTimestamp();
        Get hostile = HostileRequests.snapshotRead(row, readerStart, 0, CommitMode.LOW_LATENCY, forged, buckets);
        try (Table raw = TestCluster.connection().getTable(data)) {
            IOException refused = HostileRequests.refusal(raw, hostile);
            assertNull(HostileRequests.shadowCell(raw, row, F, Q, start), "nothing was healed into the data table");
            assertNotNull(refused, "the read was answered");
            assertTrue(String.valueOf(refused.getMessage()).contains(cluster.commitTable.tableName().getNameAsString()),
                    "the refusal names the table's own commit table: " + refused);
        }
        assertTrue(cluster.commitTable.lookup(start).isAbsent(), "the writer is still undecided");
        cluster.tm.rollback(writer);
    }

    /** Batched mode: a reader that claims low-latency mode must not invalidate writers that may still commit. */
    @Test
    void aReadClaimingAnotherCommitModeCannotInvalidateWriters(@InMode(CommitMode.BATCHED) TestCluster cluster)
            throws Exception {
        TableName data = cluster.createTransactionalTable("mode");
        byte[] row = Bytes.toBytes("row");
        Transaction writer = cluster.tm.begin();
        try (TTable t = new TTable(TestCluster.connection(), data)) {
            t.put(writer, new Put(row).addColumn(F, Q, Bytes.toBytes("pending")));
        }
        long readerStart = cluster.tm.begin().startTimestamp();
        Get hostile = hostileRead(cluster, row, readerStart, 0, CommitMode.LOW_LATENCY);
        IOException refused;
        try (Table raw = TestCluster.connection().getTable(data)) {
            refused = HostileRequests.refusal(raw, hostile);
        }
        assertFalse(cluster.commitTable.lookup(writer.startTimestamp()).isInvalidated(),
                "the writer may still commit");
        assertNotNull(refused, "the read was answered");
        cluster.tm.commit(writer);
    }

    /** Batched mode: a claimed epoch above the current incarnation's would invalidate its running writers. */
    @Test
    void aReadClaimingAnEpochNoTsoRecordedCannotInvalidateWriters(@InMode(CommitMode.BATCHED) TestCluster cluster)
            throws Exception {
        TableName data = cluster.createTransactionalTable("epoch");
        byte[] row = Bytes.toBytes("row");
        Transaction writer = cluster.tm.begin();
        try (TTable t = new TTable(TestCluster.connection(), data)) {
            t.put(writer, new Put(row).addColumn(F, Q, Bytes.toBytes("pending")));
        }
        long readerStart = cluster.tm.begin().startTimestamp();
        Get hostile = hostileRead(cluster, row, readerStart, readerStart - 1, CommitMode.BATCHED);
        IOException refused;
        try (Table raw = TestCluster.connection().getTable(data)) {
            refused = HostileRequests.refusal(raw, hostile);
        }
        assertFalse(cluster.commitTable.lookup(writer.startTimestamp()).isInvalidated(),
                "the writer belongs to the serving incarnation and may still commit");
        assertNotNull(refused, "the read was answered");
        cluster.tm.commit(writer);
        // The epoch the TSO recorded is honoured: a reader of the current incarnation reads.
        Transaction reader = cluster.tm.begin();
        try (TTable t = new TTable(TestCluster.connection(), data)) {
            assertArrayEquals(Bytes.toBytes("pending"), t.get(reader, new Get(row)).getValue(F, Q));
        }
        cluster.tm.commit(reader);
    }

    /**
     * The first read of a region read the persisted low watermark from the commit table it named: naming one without
     * a watermark pinned the region's horizon at 0 until it reopened, and snapshots below the real horizon were read.
     */
    @Test
    void aFirstReadNamingAnotherCommitTableCannotPinTheGarbageCollectionHorizon() throws Exception {
        // A cluster of its own: the test raises its low watermark to the present.
        try (TestCluster cluster = TestCluster.start("claims_horizon", CommitMode.LOW_LATENCY)) {
            TableName data = cluster.createTransactionalTable("horizon");
            byte[] row = Bytes.toBytes("row");
            Transaction old = cluster.tm.begin();
            // As the TSO persists it once its conflict map evicted past the old transaction.
            cluster.commitTable.raiseLowWatermark(old.startTimestamp());
            SharedMiniCluster.utility().getAdmin().disableTable(data);
            SharedMiniCluster.utility().getAdmin().enableTable(data);
            TableName empty = cluster.createPlainTable("no_watermark", 1);
            int buckets = new CommitTableSettings(cluster.config).buckets();
            try (Table emptyTable = TestCluster.connection().getTable(empty)) {
                HostileRequests.forgeCommitTable(emptyTable, buckets);
            }
            Get hostile = HostileRequests.snapshotRead(row, old.startTimestamp(), 0, CommitMode.LOW_LATENCY, empty,
                    buckets);
            IOException refused;
            try (Table raw = TestCluster.connection().getTable(data)) {
                refused = HostileRequests.refusal(raw, hostile);
            }
            try (TTable t = new TTable(TestCluster.connection(), data)) {
                IOException tooOld = assertThrows(IOException.class, () -> t.get(old, new Get(row)),
                        "a snapshot at the persisted low watermark read the region");
                assertTrue(tooOld instanceof SnapshotTooOldException
                        || tooOld.getCause() instanceof SnapshotTooOldException
                        || String.valueOf(tooOld.getMessage()).contains("SNAPSHOT_TOO_OLD"), tooOld.toString());
            }
            assertNotNull(refused, "the read was answered");
        }
    }

    /**
     * A start timestamp from the future raised the region's fast-path read clock, and every version minted on the
     * region after it lay above every TSO timestamp: generic transactions could never write those rows again.
     */
    @Test
    void aReadClaimingAStartNoTsoHandedOutCannotMoveTheFastPathClock(TestCluster cluster) throws Exception {
        TableName data = cluster.createTable("future", EnumSet.of(TableFeature.SERVER_SIDE_SNAPSHOTS,
                TableFeature.COMPACTION_GC, TableFeature.FAST_PATH));
        byte[] row = Bytes.toBytes("row");
        IOException refused;
        try (Table raw = TestCluster.connection().getTable(data)) {
            refused = HostileRequests.refusal(raw, HostileRequests.fromTheFuture(row));
        }
        try (FastPathTable fast = cluster.fastPath(data)) {
            long version = fast.put(new Put(row).addColumn(F, Q, Bytes.toBytes("fast")));
            Transaction later = cluster.tm.begin();
            assertTrue(version < later.startTimestamp(), "a fast-path version stays below the next TSO timestamp");
            try (TTable t = new TTable(TestCluster.connection(), data)) {
                t.put(later, new Put(row).addColumn(F, Q, Bytes.toBytes("generic")));
            }
            cluster.tm.commit(later);
        }
        assertNotNull(refused, "the read was answered");
    }

    private static Get hostileRead(TestCluster cluster, byte[] row, long start, long epoch, CommitMode mode) {
        return HostileRequests.snapshotRead(row, start, epoch, mode, cluster.commitTable.tableName(),
                new CommitTableSettings(cluster.config).buckets());
    }
}
