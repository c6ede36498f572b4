package io.tidemark.client.admin;

import io.tidemark.table.TableFeature;
import io.tidemark.client.TTable;
import io.tidemark.client.TableConvertedAfterStartException;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionAbortedException;
import io.tidemark.client.TransactionManager;
import io.tidemark.client.fastpath.FastPathTable;
import io.tidemark.encoding.CellEncoding;
import io.tidemark.protocol.CommitMode;
import io.tidemark.table.TransactionalTableLayout;
import io.tidemark.testing.EachCommitMode;
import io.tidemark.testing.LatestSnapshot;
import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.TestCluster;
import io.tidemark.timestamp.Timestamps;
import io.tidemark.visibility.Conversion;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.CoprocessorDescriptor;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static io.tidemark.testing.TestCluster.F;
import static io.tidemark.testing.TestCluster.G;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Converting a table that already holds data written outside transactions ({@code ./tidemark table enable}, issue
 * 12): the cells it stored before count as committed in every snapshot, on every read path, and survive compaction;
 * transactional writes on top of them follow snapshot isolation.
 */
@ExtendWith(SharedTestClusters.class)
class TableConversionTest {

    private static final byte[] Q = Bytes.toBytes("q");

    /**
     * A plain table holding what ordinary HBase code leaves behind: several versions, a column deleted with all its
     * versions, a single version deleted (the older one shows again), and a second family. Wall-clock timestamps, as
     * HBase stamps them, a second apart so that they are distinct versions.
     */
    private static TableName legacyTable(TestCluster cluster, String prefix) throws IOException {
        TableName name = cluster.createPlainTable(prefix, 5);
        long now = System.currentTimeMillis();
        try (Table raw = TestCluster.connection().getTable(name)) {
            for (int i = 1; i <= 3; i++) {
                raw.put(new Put(row("a")).addColumn(F, Q, now - 4000 + i * 1000, value("a" + i)));
            }
            raw.put(new Put(row("b")).addColumn(F, Q, now - 3000, value("gone")));
            raw.delete(new Delete(row("b")).addColumns(F, Q));
            raw.put(new Put(row("c")).addColumn(F, Q, now - 3000, value("c1")));
            raw.put(new Put(row("c")).addColumn(F, Q, now - 2000, value("c2")));
            raw.delete(new Delete(row("c")).addColumn(F, Q, now - 2000));
            raw.put(new Put(row("d")).addColumn(G, Q, value("g")));
        }
        return name;
    }

    /** What every snapshot after the conversion reads from {@link #legacyTable}. */
    private static final Map<String, String> LEGACY_VIEW = Map.of("a", "a3", "c", "c1", "d", "g");

    @ParameterizedTest
    @EachCommitMode
    void cellsStoredBeforeTheConversionAreCommittedOnServerSideClientSideAndFastPathReads(TestCluster cluster)
            throws IOException {
        TableName name = legacyTable(cluster, "paths");

        Conversion conversion = cluster.admin.enable(name, cluster.tm);

        for (Cell cell : rawCells(name)) {
            assertTrue(conversion.isLegacy(cell.getTimestamp()), "HBase's wall-clock versions are far below TSO"
                    + " timestamps: " + cell + ", " + conversion);
        }
        assertEquals(Long.toString(conversion.convertedAt()),
                descriptor(name).getValue(TransactionalTableLayout.CONVERTED_AT_KEY));
        assertEquals(List.of(), cluster.admin.check(name));
        try (TTable table = new TTable(TestCluster.connection(), name)) {
            assertEquals(LEGACY_VIEW, visible(cluster.tm, table), "server-side reads");
        }

        withFeatures(cluster, name, EnumSet.of(TableFeature.COMPACTION_GC));
        try (TransactionManager fresh = cluster.managerBuilder().build();
             TTable table = new TTable(TestCluster.connection(), name)) {
            assertEquals(LEGACY_VIEW, visible(fresh, table), "reads resolved by the client");
        }

        withFeatures(cluster, name, EnumSet.of(TableFeature.COMPACTION_GC, TableFeature.FAST_PATH));
        try (FastPathTable fast = FastPathTable.builder(TestCluster.connection(), name).transactionManager(cluster.tm)
                .config(cluster.config).build()) {
            assertEquals("a3", Bytes.toString(fast.get(new Get(row("a"))).result().getValue(F, Q)));
            assertTrue(fast.get(new Get(row("b"))).result().isEmpty());
            assertEquals("c1", Bytes.toString(fast.get(new Get(row("c"))).result().getValue(F, Q)));
        }
        for (Cell cell : rawCells(name)) {
            assertFalse(CellEncoding.isShadowQualifier(cell.getQualifierArray(), cell.getQualifierOffset(),
                    cell.getQualifierLength()), "no reader healed a legacy cell: " + cell);
            assertTrue(cluster.commitTable.lookup(cell.getTimestamp()).isAbsent(),
                    "no legacy writer is resolved against, or invalidated in, the commit table: " + cell);
        }
        TestCluster.drop(name);
    }

    @Test
    void transactionalWritesOnTopOfLegacyCellsFollowSnapshotIsolation(TestCluster cluster) throws IOException {
        TableName name = legacyTable(cluster, "si");
        cluster.admin.enable(name, cluster.tm);
        try (TTable table = new TTable(TestCluster.connection(), name)) {
            Transaction early = cluster.tm.begin();
            Transaction writer = cluster.tm.begin();
            table.put(writer, new Put(row("a")).addColumn(F, Q, value("new")));
            table.delete(writer, new Delete(row("c")).addColumns(F, Q));
            Transaction concurrent = cluster.tm.begin();
            table.put(concurrent, new Put(row("a")).addColumn(F, Q, value("lost")));
            cluster.tm.commit(writer);
            TransactionAbortedException lost = assertThrows(TransactionAbortedException.class,
                    () -> cluster.tm.commit(concurrent));
            assertEquals(TransactionAbortedException.Reason.CONFLICT, lost.reason(),
                    "a legacy column is conflict-checked like any other");

            assertEquals(LEGACY_VIEW, visible(early, table), "an older snapshot still reads the legacy values");
            cluster.tm.commit(early);
            assertEquals(Map.of("a", "new", "d", "g"), visible(cluster.tm, table));
        }
        TestCluster.drop(name);
    }

    @Test
    void aTransactionBegunBeforeTheConversionCannotWriteTheTable(TestCluster cluster) throws IOException {
        TableName name = legacyTable(cluster, "older");
        Transaction older = cluster.tm.begin();

        Conversion conversion = cluster.admin.enable(name, cluster.tm);

        try (TTable table = new TTable(TestCluster.connection(), name)) {
            TableConvertedAfterStartException refused = assertThrows(TableConvertedAfterStartException.class,
                    () -> table.put(older, new Put(row("a")).addColumn(F, Q, value("stale"))));
            assertEquals(conversion.convertedAt(), refused.convertedAt());
            assertTrue(refused.getMessage().contains(name.getNameAsString()), refused.getMessage());
            assertThrows(TableConvertedAfterStartException.class,
                    () -> table.delete(older, new Delete(row("a"))));
            cluster.tm.commit(older);
            assertEquals(LEGACY_VIEW, visible(cluster.tm, table), "nothing of the refused writes is stored");
        }
        TestCluster.drop(name);
    }

    @Test
    void aCompactionAfterTheConversionKeepsTheNewestLegacyVersionOfEveryColumn() throws IOException {
        // A cluster of its own: the test raises its low watermark to the present.
        try (TestCluster cluster = TestCluster.start("convert_compact", CommitMode.LOW_LATENCY)) {
            TableName name = legacyTable(cluster, "compact");
            cluster.admin.enable(name, cluster.tm);
            try (TTable table = new TTable(TestCluster.connection(), name)) {
                Transaction writer = cluster.tm.begin();
                table.put(writer, new Put(row("e")).addColumn(F, Q, value("tx")));
                cluster.tm.commit(writer);
                // Every legacy cell and the transactional write are below the watermark: everything is collectable.
                cluster.commitTable.raiseLowWatermark(cluster.tm.begin().startTimestamp());
                compact(name);

                Map<String, String> expected = new TreeMap<>(LEGACY_VIEW);
                expected.put("e", "tx");
                assertEquals(expected, visible(cluster.tm, table));
            }
            List<String> stored = new ArrayList<>();
            for (Cell cell : rawCells(name)) {
                if (!CellEncoding.isMetadataQualifier(cell.getQualifierArray(), cell.getQualifierOffset(),
                        cell.getQualifierLength())) {
                    stored.add(Bytes.toString(CellUtil.cloneRow(cell)) + "="
                            + Bytes.toString(CellUtil.cloneValue(cell)));
                }
            }
            assertEquals(List.of("a=a3", "c=c1", "d=g", "e=tx"), stored,
                    "the newest legacy version of each column is kept, the older ones collected");
            TestCluster.drop(name);
        }
    }

    @Test
    void enableRefusesATableHoldingACellWithATimestampFromTheFuture(TestCluster cluster) throws IOException {
        TableName name = legacyTable(cluster, "future");
        long future = Timestamps.wallClockFloor(System.currentTimeMillis()) + (1L << 50);
        try (Table raw = TestCluster.connection().getTable(name)) {
            raw.put(new Put(row("z")).addColumn(F, Q, future, value("ahead")));
        }

        TableHoldsFutureCellsException refused = assertThrows(TableHoldsFutureCellsException.class,
                () -> cluster.admin.enable(name, cluster.tm));

        assertTrue(refused.getMessage().contains("'z'"), refused.getMessage());
        assertTrue(refused.getMessage().contains(Long.toString(future)), refused.getMessage());
        TableDescriptor unchanged = descriptor(name);
        assertNull(unchanged.getValue(TransactionalTableLayout.CONVERTED_AT_KEY));
        assertFalse(TransactionalTableInspector.isTransactional(unchanged.getColumnFamily(F)), "nothing was changed");
        TestCluster.drop(name);
    }

    @Test
    void enableRefusesAnUnmarkedTableHoldingTidemarkMetadata(TestCluster cluster) throws IOException {
        TableName name = legacyTable(cluster, "metadata");
        try (Table raw = TestCluster.connection().getTable(name)) {
            raw.put(new Put(row("t")).addColumn(F, Q, 7 * Timestamps.TSO_STEP, value("tentative?"))
                    .addColumn(F, CellEncoding.shadowQualifier(Q), 6 * Timestamps.TSO_STEP,
                            CellEncoding.encodeCommitTimestamp(6 * Timestamps.TSO_STEP + 1)));
        }

        IOException refused = assertThrows(IOException.class, () -> cluster.admin.enable(name, cluster.tm));

        assertTrue(refused.getMessage().contains("Tidemark metadata") && refused.getMessage().contains("'t'"),
                refused.getMessage());
        assertNull(descriptor(name).getValue(TransactionalTableLayout.CONVERTED_AT_KEY), "nothing was changed");
        TestCluster.drop(name);
    }

    /** Plain writes run until just before the conversion; every one of them is committed data afterwards. */
    @Test
    void aTableWrittenByPlainClientsUntilJustBeforeTheConversionKeepsEveryWrite(TestCluster cluster) throws Exception {
        TableName name = cluster.createPlainTable("live", 1);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong written = new AtomicLong();
        Thread plainWriter = new Thread(() -> {
            try (Table raw = TestCluster.connection().getTable(name)) {
                while (!stop.get()) {
                    long n = written.get();
                    raw.put(new Put(row("r" + (n % 20))).addColumn(F, Q, value(Long.toString(n))));
                    written.incrementAndGet();
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }, "plain-writer");
        plainWriter.start();
        while (written.get() < 200) {
            Thread.sleep(10);
        }
        stop.set(true);
        plainWriter.join();

        cluster.admin.enable(name, cluster.tm);

        Map<String, String> expected = new TreeMap<>();
        long total = written.get();
        for (long n = Math.max(0, total - 20); n < total; n++) {
            expected.put("r" + (n % 20), Long.toString(n));
        }
        try (TTable table = new TTable(TestCluster.connection(), name)) {
            assertEquals(expected, visible(cluster.tm, table), "the last plain write of every row");
        }
        TestCluster.drop(name);
    }

    /** Row to value of column f:q or g:q, as a new transaction scans it. */
    private static Map<String, String> visible(TransactionManager tm, TTable table) throws IOException {
        return LatestSnapshot.inNewTransaction(tm, tx -> visible(tx, table));
    }

    private static Map<String, String> visible(Transaction tx, TTable table) throws IOException {
        Map<String, String> seen = LatestSnapshot.scan(tx, table, TableConversionTest::valueOfFOrG);
        for (Map.Entry<String, String> e : seen.entrySet()) {
            assertEquals(e.getValue(), valueOfFOrG(table.get(tx, new Get(row(e.getKey())))),
                    "get and scan agree on row " + e.getKey());
        }
        return seen;
    }

    private static String valueOfFOrG(Result r) {
        return Bytes.toString(r.getValue(F, Q) != null ? r.getValue(F, Q) : r.getValue(G, Q));
    }

    /** Gives the table's observer exactly {@code features}, as {@code descriptorFor} configures it for this cluster. */
    private static void withFeatures(TestCluster cluster, TableName name, Set<TableFeature> features)
            throws IOException {
        TableDescriptor template = cluster.admin.descriptorFor(name, List.of("f"), features);
        try (Admin admin = TestCluster.connection().getAdmin()) {
            TableDescriptorBuilder builder = TableDescriptorBuilder.newBuilder(admin.getDescriptor(name))
                    .removeCoprocessor(TransactionalTableLayout.TRANSACTIONAL_OBSERVER);
            for (CoprocessorDescriptor coprocessor : template.getCoprocessorDescriptors()) {
                builder.setCoprocessor(coprocessor);
            }
            admin.modifyTable(builder.build());
        }
    }

    private static void compact(TableName name) throws IOException {
        for (HRegion region : SharedMiniCluster.utility().getMiniHBaseCluster().getRegions(name)) {
            region.flush(true);
            region.compact(true);
        }
    }

    private static List<Cell> rawCells(TableName name) throws IOException {
        List<Cell> cells = new ArrayList<>();
        try (Table raw = TestCluster.connection().getTable(name);
             ResultScanner rows = raw.getScanner(new Scan().readAllVersions())) {
            for (Result r : rows) {
                for (Cell c : r.rawCells()) {
                    cells.add(c);
                }
            }
        }
        return cells;
    }

    private static TableDescriptor descriptor(TableName name) throws IOException {
        try (Admin admin = TestCluster.connection().getAdmin()) {
            return admin.getDescriptor(name);
        }
    }

    private static byte[] row(String row) {
        return Bytes.toBytes(row);
    }

    private static byte[] value(String value) {
        return Bytes.toBytes(value);
    }
}
