package io.tidemark.client;

import io.tidemark.table.TableFeature;
import io.tidemark.client.fastpath.FastPathTable;
import io.tidemark.client.fastpath.VersionedResult;
import io.tidemark.fastpath.FastPathConflictException;
import io.tidemark.protocol.CommitMode;
import io.tidemark.testing.EachCommitMode;
import io.tidemark.testing.InMode;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.TestCluster;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static io.tidemark.client.CheckpointCells.Q;
import static io.tidemark.client.CheckpointCells.key;
import static io.tidemark.client.CheckpointCells.put;
import static io.tidemark.client.CheckpointCells.rawCells;
import static io.tidemark.client.CheckpointCells.shadowCellVersions;
import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Checkpoints: write epochs inside one transaction ({@link Transaction#checkpoint()}), read at
 * {@link VisibilityLevel#SNAPSHOT}, {@link VisibilityLevel#SNAPSHOT_EXCLUDE_CURRENT} or
 * {@link VisibilityLevel#SNAPSHOT_ALL}, committed, rolled back, conflict-checked and recovered as one transaction.
 * Tests that only read a transaction's own checkpoints and committed data run on the low-latency cluster alone: which
 * of client and TSO writes a commit record does not change a read. Tests that commit, conflict, roll back or recover
 * checkpoints run in both modes. The recovery of a transaction whose client died is {@link CheckpointRecoveryTest}'s.
 */
@ExtendWith(SharedTestClusters.class)
class CheckpointTest {

    @Test
    void aStatementReadsThePreviousCheckpointNotTheCurrentOne(TestCluster cluster) throws IOException {
        TableName name = cluster.createTable("levels", Set.of());
        byte[] row = Bytes.toBytes("row");
        try (TTable table = new TTable(TestCluster.connection(), name)) {
            Transaction tx = cluster.tm.begin();
            table.put(tx, put(row, "epoch 0"));
            tx.setVisibilityLevel(VisibilityLevel.SNAPSHOT_EXCLUDE_CURRENT);
            assertNull(read(table, tx, row), "before the first checkpoint no own write is visible at this level");
            tx.checkpoint();
            assertEquals(1, tx.currentCheckpoint());
            table.put(tx, put(row, "epoch 1"));
            assertEquals("epoch 0", read(table, tx, row));
            tx.checkpoint();
            assertEquals("epoch 1", read(table, tx, row));
            table.delete(tx, new Delete(row).addColumns(F, Q));
            assertEquals("epoch 1", read(table, tx, row), "the current checkpoint's delete is not visible yet");
            tx.setVisibilityLevel(VisibilityLevel.SNAPSHOT);
            assertNull(read(table, tx, row), "at SNAPSHOT every own write is visible");
            cluster.tm.commit(tx);
            assertNull(LatestRead.of(cluster, table, row), "the last checkpoint's delete is what committed");
        } finally {
            TestCluster.drop(name);
        }
    }

    @Test
    void anUpsertSelectOnOneTableDoesNotReadItsOwnOutput(TestCluster cluster) throws IOException {
        TableName name = cluster.createTable("upsert", Set.of());
        try (TTable table = new TTable(TestCluster.connection(), name)) {
            Transaction load = cluster.tm.begin();
            for (int i = 0; i < 5; i++) {
                table.put(load, put(key(i), "v" + i));
            }
            cluster.tm.commit(load);

            // UPSERT INTO t SELECT k + 1, v FROM t: every row is copied one key up, in the same table.
            Transaction tx = cluster.tm.begin();
            tx.checkpoint();
            tx.setVisibilityLevel(VisibilityLevel.SNAPSHOT_EXCLUDE_CURRENT);
            int scanned = 0;
            try (ResultScanner rows = table.getScanner(tx, new Scan().setCaching(1))) {
                for (Result r : rows) {
                    int k = Integer.parseInt(Bytes.toString(r.getRow()).substring(1));
                    table.put(tx, new Put(key(k + 1)).addColumn(F, Q, r.getValue(F, Q)));
                    scanned++;
                }
            }
            cluster.tm.commit(tx);

            assertEquals(5, scanned, "the scan saw only the rows that existed before the statement");
            assertEquals("v0", LatestRead.of(cluster, table, key(0)));
            for (int k = 1; k <= 5; k++) {
                assertEquals("v" + (k - 1), LatestRead.of(cluster, table, key(k)),
                        "row " + k + " holds its predecessor's original value, not a copy of a copy");
            }
        } finally {
            TestCluster.drop(name);
        }
    }

    @ParameterizedTest
    @EachCommitMode
    void aCommitMakesEveryCheckpointVisibleToOthersAtOnce(TestCluster cluster) throws IOException {
        TableName name = cluster.createTable("commit", Set.of());
        try (TTable table = new TTable(TestCluster.connection(), name)) {
            // Begun first: a later reader would, in low-latency mode, invalidate the running writer instead.
            Transaction before = cluster.tm.begin();
            Transaction tx = cluster.tm.begin();
            table.put(tx, put(key(0), "a0"));
            table.put(tx, put(key(1), "b0"));
            tx.checkpoint();
            table.put(tx, put(key(1), "b1"));
            tx.checkpoint();
            table.put(tx, put(key(2), "c2"));
            assertEquals(List.of(), visibleValues(table, before), "nothing is visible before the commit");
            cluster.tm.commit(tx);

            assertEquals(List.of(), visibleValues(table, before), "a snapshot older than the commit sees none");
            cluster.tm.rollback(before);
            Transaction after = cluster.tm.begin();
            assertEquals(List.of("a0", "b1", "c2"), visibleValues(table, after));
            cluster.tm.rollback(after);
            assertEquals(Set.of(tx.startTimestamp(), Timestamps.checkpointVersion(tx.startTimestamp(), 1),
                    Timestamps.checkpointVersion(tx.startTimestamp(), 2)), shadowCellVersions(name));
        } finally {
            TestCluster.drop(name);
        }
    }

    /**
     * A rollback removes the cells of every checkpoint, and only those: a fast-path write minted at start + 1 (the
     * first version above the transaction's read of the region) is another, committed writer and stays.
     */
    @ParameterizedTest
    @EachCommitMode
    void aRollbackRemovesEveryCheckpointButNotAFastPathWriteJustAboveTheStart(TestCluster cluster) throws IOException {
        TableName name = cluster.createTable("rollback", Set.of(TableFeature.FAST_PATH));
        try (TTable table = new TTable(TestCluster.connection(), name); FastPathTable fp = cluster.fastPath(name)) {
            fp.put(put(Bytes.toBytes("warm-up"), "teaches the region a TSO timestamp"));
            Transaction tx = cluster.tm.begin();
            assertNull(read(table, tx, Bytes.toBytes("fast")), "the read raises the region's read clock to the start");
            long fastPathVersion = fp.put(put(Bytes.toBytes("fast"), "fast path"));
            assertEquals(tx.startTimestamp() + 1, fastPathVersion);
            table.put(tx, put(key(0), "a0"));
            tx.checkpoint();
            table.put(tx, put(key(0), "a1"));
            table.delete(tx, new Delete(key(1)).addColumns(F, Q));
            tx.checkpoint();
            table.put(tx, put(key(2), "c2"));
            cluster.tm.rollback(tx);

            List<Cell> left = rawCells(name);
            for (Cell c : left) {
                assertFalse(Timestamps.writerOf(c.getTimestamp()) == tx.startTimestamp(),
                        "a cell of the rolled-back transaction is left: " + c);
            }
            assertTrue(left.stream().anyMatch(c -> c.getTimestamp() == fastPathVersion),
                    "the fast-path write at start + 1 must stay");
            assertEquals("fast path", LatestRead.of(cluster, table, Bytes.toBytes("fast")));
        } finally {
            TestCluster.drop(name);
        }
    }

    @ParameterizedTest
    @EachCommitMode
    void aConflictWithAConcurrentTransactionIsDetectedWhicheverCheckpointWroteTheColumn(TestCluster cluster)
            throws IOException {
        TableName name = cluster.createTable("conflict", Set.of());
        try (TTable table = new TTable(TestCluster.connection(), name)) {
            for (int checkpointOfTheConflict = 0; checkpointOfTheConflict < 3; checkpointOfTheConflict++) {
                byte[] contested = Bytes.toBytes("contested-" + checkpointOfTheConflict);
                Transaction tx = cluster.tm.begin();
                Transaction concurrent = cluster.tm.begin();
                for (int k = 0; k < 3; k++) {
                    table.put(tx, put(k == checkpointOfTheConflict ? contested : key(10 * checkpointOfTheConflict + k),
                            "mine " + k));
                    tx.checkpoint();
                }
                table.put(concurrent, put(contested, "theirs"));
                cluster.tm.commit(concurrent);

                TransactionAbortedException aborted = assertThrows(TransactionAbortedException.class,
                        () -> cluster.tm.commit(tx));
                assertEquals(TransactionAbortedException.Reason.CONFLICT, aborted.reason());
                assertEquals("theirs", LatestRead.of(cluster, table, contested));
            }
        } finally {
            TestCluster.drop(name);
        }
    }

    @Test
    void serverSideReadsObeyTheVisibilityLevel(TestCluster cluster) throws IOException {
        TableName name = cluster.createTable("serverside", Set.of(TableFeature.SERVER_SIDE_SNAPSHOTS));
        try (TTable table = new TTable(TestCluster.connection(), name)) {
            Transaction tx = cluster.tm.begin();
            table.put(tx, put(key(0), "a0"));
            tx.checkpoint();
            table.put(tx, put(key(0), "a1"));
            table.put(tx, put(key(1), "b1"));
            tx.setVisibilityLevel(VisibilityLevel.SNAPSHOT_EXCLUDE_CURRENT);
            // A filter is only allowed when the region server resolves the snapshot: this proves the path taken.
            Scan filtered = new Scan().setFilter(new PrefixFilter(Bytes.toBytes("k")));
            assertEquals(List.of("a0"), values(table, tx, filtered));
            assertEquals("a0", Bytes.toString(table.get(tx, new Get(key(0)).setFilter(
                    new PrefixFilter(Bytes.toBytes("k")))).getValue(F, Q)));
            tx.setVisibilityLevel(VisibilityLevel.SNAPSHOT);
            assertEquals(List.of("a1", "b1"), values(table, tx, filtered));
            cluster.tm.rollback(tx);
        } finally {
            TestCluster.drop(name);
        }
    }

    @Test
    void snapshotAllReadsEveryCheckpointsVersionThenTheSnapshotsOnTheClient(TestCluster cluster) throws IOException {
        readsEveryOwnVersionThenTheSnapshots(cluster, Set.of(), null);
    }

    /** The same reads resolved by the region server: a filter is only allowed there, which proves the path taken. */
    @Test
    void snapshotAllReadsEveryCheckpointsVersionThenTheSnapshotsInTheRegionServer(TestCluster cluster)
            throws IOException {
        readsEveryOwnVersionThenTheSnapshots(cluster,
                Set.of(TableFeature.SERVER_SIDE_SNAPSHOTS), new PrefixFilter(Bytes.toBytes("row")));
    }

    /**
     * A column loaded before the transaction, written by two concurrent transactions that commit while it runs (one
     * begun before it, one after), then written by it in three checkpoints: SNAPSHOT_ALL reads the three checkpoint
     * versions newest first and then the loaded value, never a concurrent one; a delete in a later checkpoint ends
     * the list.
     */
    private static void readsEveryOwnVersionThenTheSnapshots(TestCluster cluster, Set<TableFeature> features,
            Filter filter) throws IOException {
        TableName name = cluster.createTable("all", features);
        byte[] row = Bytes.toBytes("row");
        try (TTable table = new TTable(TestCluster.connection(), name)) {
            Transaction load = cluster.tm.begin();
            table.put(load, put(row, "loaded"));
            cluster.tm.commit(load);
            Transaction early = cluster.tm.begin();
            Transaction tx = cluster.tm.begin();
            table.put(early, put(row, "concurrent, begun before"));
            cluster.tm.commit(early);
            Transaction later = cluster.tm.begin();
            table.put(later, put(row, "concurrent, begun after"));
            cluster.tm.commit(later);

            table.put(tx, put(row, "epoch 0"));
            tx.checkpoint();
            table.put(tx, put(row, "epoch 1"));
            tx.checkpoint();
            table.put(tx, put(row, "epoch 2"));
            assertThrows(UnsupportedOperationException.class,
                    () -> table.get(tx, get(row, filter).readVersions(10)), "several versions need SNAPSHOT_ALL");
            tx.setVisibilityLevel(VisibilityLevel.SNAPSHOT_ALL);
            List<String> expected = List.of("epoch 2", "epoch 1", "epoch 0", "loaded");
            assertEquals(expected, cellValues(table.get(tx, get(row, filter).readVersions(10))));
            assertEquals(expected, cellValues(table.get(tx, List.of(get(row, filter).readVersions(10)))[0]));
            assertEquals(expected, scannedValues(table, tx, new Scan().setFilter(filter).readVersions(10)));
            long start = tx.startTimestamp();
            assertEquals(List.of(Timestamps.checkpointVersion(start, 2), Timestamps.checkpointVersion(start, 1), start,
                    load.startTimestamp()), cellTimestamps(table.get(tx, get(row, filter).readVersions(10))),
                    "each value at the version it is stored at");
            assertEquals(List.of("epoch 2", "epoch 1"), cellValues(table.get(tx, get(row, filter).readVersions(2))));
            assertEquals(List.of("epoch 2"), cellValues(table.get(tx, get(row, filter))),
                    "one version, as at SNAPSHOT");
            assertEquals(List.of("epoch 2"), scannedValues(table, tx, new Scan().setFilter(filter)));

            tx.checkpoint();
            table.delete(tx, new Delete(row).addColumns(F, Q));
            assertEquals(List.of(), cellValues(table.get(tx, get(row, filter).readVersions(10))),
                    "the delete hides every older version");
            tx.checkpoint();
            table.put(tx, put(row, "epoch 4"));
            assertEquals(List.of("epoch 4"), cellValues(table.get(tx, get(row, filter).readVersions(10))),
                    "only what the transaction wrote after its delete");
            assertEquals(List.of("epoch 4"), scannedValues(table, tx, new Scan().setFilter(filter).readVersions(10)));
            cluster.tm.rollback(tx);
        } finally {
            TestCluster.drop(name);
        }
    }

    @ParameterizedTest
    @EachCommitMode
    void theFastPathWorksOnARowWrittenInCheckpoints(TestCluster cluster) throws IOException {
        TableName name = cluster.createTable("fastpath", Set.of(TableFeature.FAST_PATH));
        byte[] row = Bytes.toBytes("row");
        try (TTable table = new TTable(TestCluster.connection(), name); FastPathTable fp = cluster.fastPath(name)) {
            Transaction tx = cluster.tm.begin();
            tx.checkpoint();
            table.put(tx, put(row, "epoch 1"));
            tx.checkpoint();
            table.put(tx, put(row, "epoch 2"));
            assertThrows(FastPathConflictException.class, () -> fp.put(put(row, "fast")),
                    "a pending checkpoint write blocks the fast path like any pending write");
            cluster.tm.commit(tx);

            VersionedResult committed = fp.get(new Get(row));
            assertEquals("epoch 2", Bytes.toString(committed.result().getValue(F, Q)));
            assertEquals(tx.commitTimestamp(), committed.version());
            long version = fp.put(put(row, "fast"));
            assertTrue(version > tx.commitTimestamp());
            assertTrue(Timestamps.isFastPathVersion(version), "minted " + version);
            assertEquals("fast", LatestRead.of(cluster, table, row));
        } finally {
            TestCluster.drop(name);
        }
    }

    /**
     * Issue 32: at SNAPSHOT_EXCLUDE_CURRENT a read-modify-write read only earlier checkpoints, so two increments of
     * one column in the current checkpoint both started from the snapshot (the transaction committed 1, not 2), and
     * checkAndMutate(ifNotExists) succeeded twice for one key. The reads that decide a write see every own write.
     */
    @ParameterizedTest
    @EnumSource(Reads.class)
    void readModifyWritesAtSnapshotExcludeCurrentBuildOnTheTransactionsOwnWrites(Reads reads,
            @InMode(CommitMode.LOW_LATENCY) TestCluster cluster) throws IOException {
        TableName name = cluster.createTable("rmw", reads.features);
        byte[] row = Bytes.toBytes("counter");
        byte[] key = Bytes.toBytes("key");
        try (TTable table = new TTable(TestCluster.connection(), name)) {
            Transaction tx = cluster.tm.begin();
            tx.checkpoint();
            tx.setVisibilityLevel(VisibilityLevel.SNAPSHOT_EXCLUDE_CURRENT);
            table.increment(tx, new Increment(row).addColumn(F, Q, 1));
            Result second = table.increment(tx, new Increment(row).addColumn(F, Q, 1));
            assertEquals(2, Bytes.toLong(second.getValue(F, Q)), "the second increment adds to the first");
            CheckAndMutate ifAbsent = CheckAndMutate.newBuilder(key).ifNotExists(F, Q).build(put(key, "first"));
            assertTrue(table.checkAndMutate(tx, ifAbsent).isSuccess());
            CheckAndMutate again = CheckAndMutate.newBuilder(key).ifNotExists(F, Q).build(put(key, "second"));
            assertFalse(table.checkAndMutate(tx, again).isSuccess(), "the key exists: the transaction wrote it");
            cluster.tm.commit(tx);
            Transaction after = cluster.tm.begin();
            assertEquals(2, Bytes.toLong(table.get(after, new Get(row)).getValue(F, Q)));
            assertEquals("first", read(table, after, key));
            cluster.tm.commit(after);
        }
    }

    /** Issue 32: a row delete at SNAPSHOT_EXCLUDE_CURRENT missed the columns the current checkpoint had written. */
    @ParameterizedTest
    @EnumSource(Reads.class)
    void aRowDeleteAtSnapshotExcludeCurrentCoversTheCurrentCheckpointsColumns(Reads reads,
            @InMode(CommitMode.LOW_LATENCY) TestCluster cluster) throws IOException {
        TableName name = cluster.createTable("rowdelete", reads.features);
        byte[] row = Bytes.toBytes("row");
        try (TTable table = new TTable(TestCluster.connection(), name)) {
            Transaction tx = cluster.tm.begin();
            tx.checkpoint();
            table.put(tx, put(row, "written in this checkpoint"));
            tx.setVisibilityLevel(VisibilityLevel.SNAPSHOT_EXCLUDE_CURRENT);
            table.delete(tx, new Delete(row));
            cluster.tm.commit(tx);
            Transaction after = cluster.tm.begin();
            assertTrue(table.get(after, new Get(row)).isEmpty(), "the row was deleted after it was written");
            cluster.tm.commit(after);
        }
    }

    /** Where a test's reads are resolved. */
    enum Reads {
        CLIENT(Set.of()),
        REGION_SERVER(Set.of(TableFeature.SERVER_SIDE_SNAPSHOTS));

        final Set<TableFeature> features;

        Reads(Set<TableFeature> features) {
            this.features = features;
        }
    }

    @Test
    void checkpointsAreBoundedAndRefusedInReadOnlyTransactions(TestCluster cluster) throws IOException {
        TableName name = cluster.createTable("limits", Set.of());
        try (TTable table = new TTable(TestCluster.connection(), name)) {
            Transaction tx = cluster.tm.begin();
            for (int k = 0; k < Timestamps.MAX_CHECKPOINTS; k++) {
                tx.checkpoint();
            }
            TooManyCheckpointsException tooMany = assertThrows(TooManyCheckpointsException.class, tx::checkpoint);
            assertTrue(tooMany.getMessage().contains("255"), tooMany.getMessage());
            table.put(tx, put(key(0), "last checkpoint"));
            cluster.tm.commit(tx);
            assertEquals("last checkpoint", LatestRead.of(cluster, table, key(0)));

            Transaction readOnly = cluster.tm.beginReadOnly(Staleness.atMost(Duration.ofHours(1)));
            TransactionStateException refused = assertThrows(TransactionStateException.class, readOnly::checkpoint);
            assertTrue(refused.getMessage().contains("read-only"), refused.getMessage());
            cluster.tm.commit(readOnly);
        } finally {
            TestCluster.drop(name);
        }
    }

    private static String read(TTable table, Transaction tx, byte[] row) throws IOException {
        byte[] value = table.get(tx, new Get(row).addColumn(F, Q)).getValue(F, Q);
        return value == null ? null : Bytes.toString(value);
    }

    private static List<String> visibleValues(TTable table, Transaction tx) throws IOException {
        return values(table, tx, new Scan());
    }

    private static List<String> values(TTable table, Transaction tx, Scan scan) throws IOException {
        List<String> values = new ArrayList<>();
        try (ResultScanner rows = table.getScanner(tx, scan)) {
            for (Result r : rows) {
                values.add(Bytes.toString(r.getValue(F, Q)));
            }
        }
        return values;
    }

    private static Get get(byte[] row, Filter filter) {
        return new Get(row).addColumn(F, Q).setFilter(filter);
    }

    private static List<String> cellValues(Result r) {
        List<String> values = new ArrayList<>();
        for (Cell c : r.getColumnCells(F, Q)) {
            values.add(Bytes.toString(CellUtil.cloneValue(c)));
        }
        return values;
    }

    private static List<Long> cellTimestamps(Result r) {
        List<Long> timestamps = new ArrayList<>();
        for (Cell c : r.getColumnCells(F, Q)) {
            timestamps.add(c.getTimestamp());
        }
        return timestamps;
    }

    /** The values of every version the scan returns, row after row. */
    private static List<String> scannedValues(TTable table, Transaction tx, Scan scan) throws IOException {
        List<String> values = new ArrayList<>();
        try (ResultScanner rows = table.getScanner(tx, scan)) {
            for (Result r : rows) {
                values.addAll(cellValues(r));
            }
        }
        return values;
    }

    /** Reads one row in a new transaction that then commits. */
    private static final class LatestRead {
        static String of(TestCluster cluster, TTable table, byte[] row) throws IOException {
            Transaction tx = cluster.tm.begin();
            String value = read(table, tx, row);
            cluster.tm.commit(tx);
            return value;
        }
    }
}
