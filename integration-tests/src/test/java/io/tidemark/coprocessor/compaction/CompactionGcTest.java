package io.tidemark.coprocessor.compaction;

import io.tidemark.client.admin.TidemarkAdmin;
import io.tidemark.committable.CommitRecord;
import io.tidemark.committable.CommitTableAdmin;
import io.tidemark.committable.CommitTableSettings;
import io.tidemark.committable.HBaseCommitTable;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.encoding.CellEncoding;
import io.tidemark.table.TransactionalTableLayout;
import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.testing.TestCluster;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Garbage collection at compaction, cell by cell. Versions, shadow cells and commit records are written by hand (no
 * TSO), so the low watermark and every writer's fate are exactly known; then the region is flushed and compacted on
 * the mini-cluster and the raw cells that survive are compared with what must survive.
 */
class CompactionGcTest {

    private static final long S = Timestamps.TSO_STEP;
    private static final long LOW_WATERMARK = 20 * S;
    private static final byte[] F = Bytes.toBytes("f");
    /** Not marked transactional: compactions must leave it alone. */
    private static final byte[] PLAIN = Bytes.toBytes("p");
    private static final byte[] Q = Bytes.toBytes("q");

    private static int tables;

    private TableName tableName;
    private HBaseCommitTable commitTable;
    private Table table;

    @BeforeEach
    void createTable() throws IOException {
        String name = "gc" + (++tables);
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        config.set(TidemarkConfig.COMMIT_TABLE, TestCluster.NAMESPACE + ":" + name + "_commits");
        config.set(TidemarkConfig.COMMIT_TABLE_REGIONS, "1");
        try (Admin admin = TestCluster.connection().getAdmin()) {
            CommitTableAdmin.createNamespaceIfMissing(admin, TestCluster.NAMESPACE);
            CommitTableAdmin.createIfMissing(admin, new CommitTableSettings(config));
            tableName = TableName.valueOf(TestCluster.NAMESPACE, name + "_data");
            new TidemarkAdmin(TestCluster.connection(), config).create(tableName, "f", "p");
            TableDescriptor created = admin.getDescriptor(tableName);
            // Two files are enough for a minor compaction, and at most two are picked: never all three.
            admin.modifyTable(TableDescriptorBuilder.newBuilder(created).modifyColumnFamily(
                    ColumnFamilyDescriptorBuilder.newBuilder(created.getColumnFamily(F))
                            .setConfiguration("hbase.hstore.compaction.min", "2")
                            .setConfiguration("hbase.hstore.compaction.max", "2").build())
                    .modifyColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(created.getColumnFamily(PLAIN))
                            .setValue(TransactionalTableLayout.TRANSACTIONAL_FAMILY_KEY, null).build())
                    .build());
        }
        commitTable = new HBaseCommitTable(TestCluster.connection(), new CommitTableSettings(config));
        table = TestCluster.connection().getTable(tableName);
    }

    @AfterEach
    void dropTable() throws IOException {
        table.close();
        TestCluster.drop(tableName);
        TestCluster.drop(commitTable.tableName());
    }

    @Test
    void majorCompactionKeepsOnlyWhatSnapshotsAboveTheLowWatermarkRead() throws IOException {
        // Overwritten: v1 and v3 are shadowed by v5, committed below the watermark but without its shadow cell.
        committed("over", 1, 2, true);
        committed("over", 3, 4, true);
        committed("over", 5, 6, false);
        committed("over", 25, 26, true);
        // Aborted below the watermark (invalidated by a reader), on top of an older committed value.
        committed("aborted", 2, 3, true);
        data("aborted", 7, "lost");
        commitTable.invalidate(7 * S);
        // Crashed below the watermark: no record, no shadow cell. The compaction invalidates it.
        committed("crashed", 1, 2, true);
        data("crashed", 8, "lost");
        // Deleted below the watermark: nothing of the column survives a major compaction.
        committed("deleted", 2, 3, true);
        deletion("deleted", 9, 10);
        // Pending above the watermark: untouched, not invalidated.
        data("pending", 30, "maybe");
        // Committed after the watermark although it started below it: snapshots below its commit still need v4.
        committed("late", 4, 5, true);
        committed("late", 15, 22, true);
        // The same versions in a family that is not transactional: HBase semantics only.
        table.put(new Put(Bytes.toBytes("over")).addColumn(PLAIN, Q, S, Bytes.toBytes("p1"))
                .addColumn(PLAIN, Q, 3 * S, Bytes.toBytes("p3")));
        commitTable.raiseLowWatermark(LOW_WATERMARK);

        HRegion region = region();
        region.flush(true);
        region.compact(true);

        assertStored("over", "f:q@5=v5", "f:q@25=v25", "f:q.shadow@5=6", "f:q.shadow@25=26", "p:q@1=p1",
                "p:q@3=p3");
        assertStored("aborted", "f:q@2=v2", "f:q.shadow@2=3");
        assertStored("crashed", "f:q@1=v1", "f:q.shadow@1=2");
        assertTrue(commitTable.lookup(8 * S).isInvalidated(), "the pending writer below the watermark is"
                + " invalidated before its cells are dropped");
        assertStored("deleted");
        assertStored("pending", "f:q@30=maybe");
        assertTrue(commitTable.lookup(30 * S).isAbsent());
        assertStored("late", "f:q@4=v4", "f:q@15=v15", "f:q.shadow@4=5", "f:q.shadow@15=22");
    }

    @Test
    void minorCompactionKeepsTheNewestCommittedDeletion() throws IOException {
        HRegion region = region();
        committed("deleted", 2, 3, true);
        region.flush(true);
        deletion("deleted", 9, 10);
        region.flush(true);
        committed("other", 11, 12, true);
        region.flush(true);
        commitTable.raiseLowWatermark(LOW_WATERMARK);

        region.compact(false);
        assertEquals(2, region.getStore(F).getStorefilesCount(), "a minor compaction of two of three files");
        List<String> deleted = stored("deleted");
        assertTrue(deleted.contains("f:q.tombstone@9=01") && deleted.contains("f:q.shadow@9=10"),
                "older files may still hold older versions, so the deletion stays: " + deleted);

        region.compact(true);
        assertStored("deleted");
        assertStored("other", "f:q@11=v11", "f:q.shadow@11=12");
    }

    @Test
    void writerThatFinishesAfterTheFlushKeepsItsData() throws IOException {
        // The data was flushed before the writer committed; its shadow cell is only in the memstore and its record
        // is already deleted, so the files being compacted show a tentative version with no commit record.
        data("race", 11, "committed");
        HRegion region = region();
        region.flush(true);
        shadow("race", 11, 12);
        commitTable.raiseLowWatermark(LOW_WATERMARK);

        region.compact(true);

        assertStored("race", "f:q@11=committed", "f:q.shadow@11=12");
        assertTrue(commitTable.lookup(11 * S).isAbsent(), "no invalidation left behind");
    }

    /**
     * Checkpoint versions (start + 3840 + k) belong to the transaction that started below them: decided by its one
     * commit record, and collectable once that start is at or below the low watermark, even where the version itself
     * is above it.
     */
    @Test
    void checkpointVersionsAreCollectedAsTheirTransactionsVersions() throws IOException {
        long committedStart = 2 * S;
        long committedCheckpoint = Timestamps.checkpointVersion(committedStart, 1);
        put("ckpt", committedStart, "epoch 0");
        put("ckpt", committedCheckpoint, "epoch 1");
        commitTable.tryCommit(new CommitRecord(committedStart, 3 * S));
        long crashedStart = 7 * S;
        put("ckpt", Timestamps.checkpointVersion(crashedStart, 2), "crashed");
        // Started exactly at the watermark: it can never commit, although its checkpoint version lies above it.
        long pendingStart = LOW_WATERMARK;
        put("edge", Timestamps.checkpointVersion(pendingStart, 1), "never");
        commitTable.raiseLowWatermark(LOW_WATERMARK);

        HRegion region = region();
        region.flush(true);
        region.compact(true);

        assertEquals(List.of("f:q.shadow@" + committedCheckpoint + "=" + 3 * S,
                "f:q@" + committedCheckpoint + "=epoch 1"), storedExactly("ckpt"));
        assertTrue(commitTable.lookup(crashedStart).isInvalidated(), "decided by its start's record");
        assertEquals(List.of(), storedExactly("edge"));
        assertTrue(commitTable.lookup(pendingStart).isInvalidated());
    }

    private void put(String row, long exactVersion, String value) throws IOException {
        table.put(new Put(Bytes.toBytes(row)).addColumn(F, Q, exactVersion, Bytes.toBytes(value)));
    }

    /** Like {@link #stored}, with exact versions and commit timestamps, sorted. */
    private List<String> storedExactly(String row) throws IOException {
        List<String> cells = new ArrayList<>();
        Scan raw = new Scan().withStartRow(Bytes.toBytes(row)).withStopRow(Bytes.toBytes(row), true)
                .setRaw(true).readAllVersions();
        try (ResultScanner scanner = table.getScanner(raw)) {
            for (Result r : scanner) {
                for (Cell c : r.rawCells()) {
                    byte[] q = CellUtil.cloneQualifier(c);
                    byte[] value = CellUtil.cloneValue(c);
                    cells.add(CellEncoding.isShadowQualifier(q, 0, q.length)
                            ? "f:q.shadow@" + c.getTimestamp() + "="
                                    + CellEncoding.decodeCommitTimestamp(value, 0, value.length)
                            : "f:" + Bytes.toString(q) + "@" + c.getTimestamp() + "=" + Bytes.toString(value));
                }
            }
        }
        Collections.sort(cells);
        return cells;
    }

    private void committed(String row, long version, long commit, boolean withShadow) throws IOException {
        data(row, version, "v" + version);
        commitTable.tryCommit(new CommitRecord(version * S, commit * S));
        if (withShadow) {
            shadow(row, version, commit);
        }
    }

    private void deletion(String row, long version, long commit) throws IOException {
        table.put(new Put(Bytes.toBytes(row)).addColumn(F, CellEncoding.tombstoneQualifier(Q), version * S,
                CellEncoding.TOMBSTONE_DELETE));
        shadow(row, version, commit);
    }

    private void data(String row, long version, String value) throws IOException {
        table.put(new Put(Bytes.toBytes(row)).addColumn(F, Q, version * S, Bytes.toBytes(value)));
    }

    private void shadow(String row, long version, long commit) throws IOException {
        table.put(new Put(Bytes.toBytes(row)).addColumn(F, CellEncoding.shadowQualifier(Q), version * S,
                CellEncoding.encodeCommitTimestamp(commit * S)));
    }

    private void assertStored(String row, String... expected) throws IOException {
        List<String> want = new ArrayList<>(List.of(expected));
        List<String> have = stored(row);
        Collections.sort(want);
        Collections.sort(have);
        assertEquals(want, have, "cells of row " + row);
    }

    /** Every stored cell of the row, raw (all versions, metadata included), as family:qualifier@version=value. */
    private List<String> stored(String row) throws IOException {
        List<String> cells = new ArrayList<>();
        Scan raw = new Scan().withStartRow(Bytes.toBytes(row)).withStopRow(Bytes.toBytes(row), true)
                .setRaw(true).readAllVersions();
        try (ResultScanner scanner = table.getScanner(raw)) {
            for (Result r : scanner) {
                for (Cell c : r.rawCells()) {
                    cells.add(describe(c));
                }
            }
        }
        return cells;
    }

    private static String describe(Cell c) {
        byte[] q = CellUtil.cloneQualifier(c);
        String family = Bytes.toString(CellUtil.cloneFamily(c));
        long version = c.getTimestamp() / S;
        byte[] value = CellUtil.cloneValue(c);
        if (CellEncoding.isShadowQualifier(q, 0, q.length)) {
            return family + ":" + Bytes.toString(CellEncoding.userQualifier(q, 0, q.length)) + ".shadow@" + version
                    + "=" + CellEncoding.decodeCommitTimestamp(value, 0, value.length) / S;
        }
        if (CellEncoding.isTombstoneQualifier(q, 0, q.length)) {
            return family + ":" + Bytes.toString(CellEncoding.userQualifier(q, 0, q.length)) + ".tombstone@"
                    + version + "=" + Bytes.toHex(value);
        }
        return family + ":" + Bytes.toString(q) + "@" + version + "=" + Bytes.toString(value);
    }

    private HRegion region() {
        List<HRegion> regions = SharedMiniCluster.utility().getMiniHBaseCluster().getRegions(tableName);
        assertEquals(1, regions.size());
        return regions.get(0);
    }
}
