package io.tidemark.client.admin;

import io.tidemark.table.TableFeature;
import io.tidemark.client.AsyncTTable;
import io.tidemark.client.TTable;
import io.tidemark.client.TimestampNotAllowedException;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionAbortedException;
import io.tidemark.client.TransactionContext;
import io.tidemark.client.TransactionManager;
import io.tidemark.client.TransactionalTable;
import io.tidemark.client.fastpath.FastPathTable;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.encoding.CellEncoding;
import io.tidemark.protocol.CommitMode;
import io.tidemark.table.TableLoad;
import io.tidemark.table.TableLoadingException;
import io.tidemark.testing.EachCommitMode;
import io.tidemark.testing.LatestSnapshot;
import io.tidemark.testing.LowWatermarks;
import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bulk loads ({@link TidemarkAdmin#beginLoad}, issue 12): loaded cells are committed at the load's fence timestamp L,
 * appear at once for snapshots above L and never for those below; transactions that could see them appear, or
 * overwrite them without a conflict, are refused or aborted on every path.
 */
@ExtendWith(SharedTestClusters.class)
class BulkLoadTest {

    private static final byte[] Q = Bytes.toBytes("q");

    @ParameterizedTest
    @EachCommitMode
    void loadedCellsAreVisibleAboveTheLoadTimestampOnlyAndAllAtOnce(TestCluster cluster) throws IOException {
        TableName name = cluster.createTransactionalTable("visible");
        try (TTable table = new TTable(TestCluster.connection(), name)) {
            commit(cluster.tm, table, "r0", "before-load");
            Transaction before = cluster.tm.begin();
            assertEquals(Map.of("r0", "before-load"), scan(before, table));

            long loadedAt;
            try (BulkLoad load = cluster.admin.beginLoad(name, cluster.tm)) {
                loadedAt = load.commitTimestamp();
                assertTrue(loadedAt > before.startTimestamp());
                load.markPutAsCommitted(put("r0", "loaded"));
                load.markPutsAsCommitted(List.of(put("r1", "loaded"), put("r2", "loaded")));
                load.finish();
            }

            assertEquals(Map.of("r0", "before-load"), scan(before, table), "a snapshot below L sees nothing loaded");
            cluster.tm.commit(before);
            Map<String, String> loaded = Map.of("r0", "loaded", "r1", "loaded", "r2", "loaded");
            Transaction after = cluster.tm.begin();
            assertEquals(loaded, scan(after, table), "a snapshot above L sees every loaded cell");
            cluster.tm.commit(after);
            for (Cell cell : rawCells(name)) {
                if (cell.getTimestamp() != loadedAt) {
                    continue;
                }
                Cell shadow = shadowOf(name, cell);
                assertEquals(loadedAt, CellEncoding.decodeCommitTimestamp(shadow.getValueArray(),
                        shadow.getValueOffset(), shadow.getValueLength()));
            }
            assertTrue(cluster.commitTable.lookup(loadedAt).isAbsent(), "a load needs no commit record");
        }
        assertEquals(TableLoad.NONE, TableLoad.of(descriptorOf(name)));
        TestCluster.drop(name);
    }

    @Test
    void aTransactionBegunBeforeTheLoadThatWritesTheTableAborts(TestCluster cluster) throws IOException {
        TableName name = cluster.createTransactionalTable("fenced");
        try (TTable table = new TTable(TestCluster.connection(), name)) {
            Transaction wroteBefore = cluster.tm.begin();
            table.put(wroteBefore, put("r", "tentative"));
            Transaction writesAfter = cluster.tm.begin();
            table.get(writesAfter, new Get(row("r")));
            try (BulkLoad load = cluster.admin.beginLoad(name, cluster.tm)) {
                load.markPutAsCommitted(put("r", "loaded"));
                load.finish();
            }
            table.put(writesAfter, put("r", "lost update"));

            for (Transaction tx : List.of(wroteBefore, writesAfter)) {
                TransactionAbortedException e = assertThrows(TransactionAbortedException.class,
                        () -> cluster.tm.commit(tx));
                assertEquals(TransactionAbortedException.Reason.FENCED, e.reason());
            }
            assertEquals(Map.of("r", "loaded"), scan(cluster.tm, table));
        }
        TestCluster.drop(name);
    }

    @Test
    void aManagerThatUsedTheTableBeforeTheLoadIsRefusedByTheRegionServersOnEveryPath(TestCluster cluster)
            throws Exception {
        TableName serverSide = cluster.createTransactionalTable("stale");
        // Without any Tidemark observer: reads resolved by the client, and the load guard alone refuses them.
        TableName clientSide = cluster.createTable("stale_client", EnumSet.noneOf(TableFeature.class));
        ExecutorService executor = Executors.newFixedThreadPool(2);
        try (TransactionManager stale = cluster.managerBuilder().build();
             AsyncConnection async = ConnectionFactory.createAsyncConnection(SharedMiniCluster.conf()).get();
             TTable server = new TTable(TestCluster.connection(), serverSide);
             TTable client = new TTable(TestCluster.connection(), clientSide);
             AsyncTTable asyncServer = stale.asyncTable(async, serverSide, executor)) {
            commit(stale, server, "r", "v");
            commit(stale, client, "r", "v");

            List<BulkLoad> loads = List.of(cluster.admin.beginLoad(serverSide, cluster.tm),
                    cluster.admin.beginLoad(clientSide, cluster.tm));
            Transaction tx = stale.begin();
            for (TTable table : List.of(server, client)) {
                String path = table == server ? "server-side reads" : "client-side reads";
                assertRefused(table.getName(), () -> table.get(tx, new Get(row("r"))), path + ": get");
                assertRefused(table.getName(), () -> scan(tx, table), path + ": scan");
                assertRefused(table.getName(), () -> table.put(tx, put("r", "w")), path + ": put");
            }
            try (Table wrapped = TransactionalTable.of(TestCluster.connection(), serverSide,
                    TransactionContext.of(tx))) {
                assertRefused(serverSide, () -> wrapped.get(new Get(row("r"))), "TransactionalTable get");
                assertRefused(serverSide, () -> wrapped.put(put("r", "w")), "TransactionalTable put");
            }
            ExecutionException failed = assertThrows(ExecutionException.class,
                    () -> asyncServer.get(tx, new Get(row("r"))).get());
            assertInstanceOf(TableLoadingException.class, failed.getCause(), "AsyncTTable get");
            stale.rollback(tx);
            try (Table raw = TestCluster.connection().getTable(serverSide)) {
                assertFalse(raw.get(new Get(row("r"))).isEmpty(), "plain HBase clients are left alone");
            }

            for (BulkLoad load : loads) {
                load.finish();
                load.close();
            }
            Transaction afterwards = stale.begin();
            assertEquals("v", value(server.get(afterwards, new Get(row("r")))));
            assertEquals("v", value(client.get(afterwards, new Get(row("r")))));
            stale.commit(afterwards);
        } finally {
            executor.shutdownNow();
        }
        TestCluster.drop(serverSide);
        TestCluster.drop(clientSide);
    }

    @Test
    void aManagerMeetingTheTableDuringTheLoadIsRefusedByItsTableCheck(TestCluster cluster) throws IOException {
        TableName name = cluster.createTransactionalTable("fresh");
        try (BulkLoad load = cluster.admin.beginLoad(name, cluster.tm);
             TransactionManager fresh = cluster.managerBuilder().build();
             TTable table = new TTable(TestCluster.connection(), name)) {
            Transaction tx = fresh.begin();
            TableLoadingException e = assertRefused(name, () -> table.get(tx, new Get(row("r"))), "first touch");
            assertTrue(e.getMessage().contains("transactional operation"), e.getMessage());
            fresh.rollback(tx);
            load.finish();
            assertEquals(Map.of(), scan(fresh, table), "the refusal was not remembered");
        }
        TestCluster.drop(name);
    }

    @Test
    void fastPathOperationsAreRefusedWhileTheTableLoads(TestCluster cluster) throws IOException {
        TableName name = cluster.createTable("fastpath", EnumSet.of(TableFeature.SERVER_SIDE_SNAPSHOTS,
                TableFeature.COMPACTION_GC, TableFeature.FAST_PATH));
        try (FastPathTable fast = cluster.fastPath(name)) {
            fast.put(put("r", "fast"));
            long loadedAt;
            try (BulkLoad load = cluster.admin.beginLoad(name, cluster.tm)) {
                loadedAt = load.commitTimestamp();
                assertRefused(name, () -> fast.get(new Get(row("r"))), "fast-path get");
                assertRefused(name, () -> fast.put(put("r", "w")), "fast-path put");
                assertRefused(name, () -> fast.increment(row("n"), F, Q, 1), "fast-path increment");
                load.markPutAsCommitted(put("r", "loaded"));
                load.finish();
            }
            assertEquals("loaded", value(fast.get(new Get(row("r"))).result()));
            long version = fast.put(put("r", "fast again"));
            assertTrue(version > loadedAt, "minted above the load after the regions reopened: " + version);
            assertEquals("fast again", value(fast.get(new Get(row("r"))).result()));
        }
        try (TTable table = new TTable(TestCluster.connection(), name)) {
            assertEquals(Map.of("r", "fast again"), scan(cluster.tm, table),
                    "a fast-path write after the load is newer than the loaded cell");
        }
        TestCluster.drop(name);
    }

    @Test
    void resumingACrashedLoadKeepsItsCommitTimestamp(TestCluster cluster) throws IOException {
        TableName name = cluster.createTransactionalTable("resume");
        long first;
        try (BulkLoad crashed = cluster.admin.beginLoad(name, cluster.tm)) {
            first = crashed.commitTimestamp();
            crashed.markPutsAsCommitted(List.of(put("r1", "1"), put("r2", "2")));
        }
        assertEquals(first, TableLoad.of(descriptorOf(name)).commitTimestamp(),
                "closed without finish: still loading at L");
        try (TTable table = new TTable(TestCluster.connection(), name)) {
            assertRefused(name, () -> scan(cluster.tm, table), "while a crashed load is pending");
            try (BulkLoad resumed = cluster.admin.beginLoad(name, cluster.tm)) {
                assertEquals(first, resumed.commitTimestamp());
                resumed.markPutsAsCommitted(List.of(put("r2", "2"), put("r3", "3")));
                resumed.finish();
            }
            assertEquals(Map.of("r1", "1", "r2", "2", "r3", "3"), scan(cluster.tm, table));
        }
        TestCluster.drop(name);
    }

    @Test
    void finishLoadCommandEndsALoadWhoseLoaderIsGoneAndItsLoaderCannotWriteAfterwards(TestCluster cluster)
            throws IOException {
        TableName name = cluster.createTransactionalTable("finishcmd");
        try (BulkLoad abandoned = cluster.admin.beginLoad(name, cluster.tm);
             TTable table = new TTable(TestCluster.connection(), name)) {
            abandoned.markPutAsCommitted(put("r1", "1"));

            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int exit = new TableCommand(TestCluster.connection(), cluster.config, TableFeature.DEFAULT)
                    .run(List.of("finish-load", name.getNameAsString()), new PrintStream(out, true,
                            StandardCharsets.UTF_8));
            assertEquals(0, exit, out.toString(StandardCharsets.UTF_8));
            Transaction afterFinish = cluster.tm.begin();
            assertEquals(Map.of("r1", "1"), scan(afterFinish, table));

            assertRefused(name, () -> abandoned.markPutAsCommitted(put("r2", "late")), "a late loader write");
            assertRefused(name, abandoned::finish, "finishing a load that was finished elsewhere");
            assertEquals(Map.of("r1", "1"), scan(afterFinish, table), "the late write left nothing");
            cluster.tm.commit(afterFinish);
        }
        TestCluster.drop(name);
    }

    @Test
    void badInputIsRefusedBeforeAnythingIsWritten(TestCluster cluster) throws IOException {
        TableName plain = cluster.createPlainTable("plain", 1);
        DoNotRetryIOException notTransactional = assertThrows(DoNotRetryIOException.class,
                () -> cluster.admin.beginLoad(plain, cluster.tm));
        assertTrue(notTransactional.getMessage().contains("not transactional"), notTransactional.getMessage());
        assertEquals(TableLoad.NONE, TableLoad.of(descriptorOf(plain)), "nothing was changed");
        TestCluster.drop(plain);

        TableName name = cluster.createTransactionalTable("bad");
        BulkLoad load = cluster.admin.beginLoad(name, cluster.tm);
        assertThrows(TimestampNotAllowedException.class,
                () -> load.markPutAsCommitted(new Put(row("r"), 5L).addColumn(F, Q, value("v"))));
        assertThrows(TimestampNotAllowedException.class,
                () -> load.markPutAsCommitted(new Put(row("r")).addColumn(F, Q, 5L, value("v"))));
        assertThrows(IllegalArgumentException.class, () -> load.markPutAsCommitted(new Put(row("r"))));
        assertThrows(IllegalArgumentException.class, () -> load.markPutAsCommitted(new Put(row("r"))
                .addColumn(F, CellEncoding.shadowQualifier(Q), value("v"))));
        assertThrows(IllegalArgumentException.class, () -> load.markPutsAsCommitted(List.of(put("ok", "v"),
                new Put(row("r")).addColumn(F, Q, 5L, value("v")))), "one bad Put refuses the batch");
        load.finish();
        assertThrows(IllegalStateException.class, () -> load.markPutAsCommitted(put("r", "v")));
        assertThrows(IllegalStateException.class, load::finish);
        load.close();
        try (TTable table = new TTable(TestCluster.connection(), name)) {
            assertEquals(Map.of(), scan(cluster.tm, table), "nothing was written");
        }
        TestCluster.drop(name);
    }

    @Test
    void loadedCellsSurviveAMajorCompactionAboveTheirCommitTimestamp() throws IOException {
        try (TestCluster cluster = TestCluster.start("bulkload_gc", CommitMode.LOW_LATENCY, config -> {
            config.set(TidemarkConfig.TSO_LOW_WATERMARK_PERSIST_MS, "20");
            config.set(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES, "8");
        })) {
            TableName name = cluster.createTransactionalTable("compact");
            try (TTable table = new TTable(TestCluster.connection(), name)) {
                commit(cluster.tm, table, "r1", "overwritten");
                commit(cluster.tm, table, "r2", "kept");
                long loadedAt;
                try (BulkLoad load = cluster.admin.beginLoad(name, cluster.tm)) {
                    loadedAt = load.commitTimestamp();
                    load.markPutsAsCommitted(List.of(put("r1", "loaded"), put("r3", "loaded")));
                    load.finish();
                }
                LowWatermarks.raiseTo(cluster, loadedAt + 1);
                for (HRegion region : SharedMiniCluster.utility().getMiniHBaseCluster().getRegions(name)) {
                    region.flush(true);
                    region.compact(true);
                }
                assertEquals(Map.of("r1", "loaded", "r2", "kept", "r3", "loaded"), scan(cluster.tm, table));
                List<Long> r1Versions = new ArrayList<>();
                for (Cell cell : rawCells(name)) {
                    if (Bytes.toString(CellUtil.cloneRow(cell)).equals("r1")
                            && !CellEncoding.isMetadataQualifier(CellUtil.cloneQualifier(cell))) {
                        r1Versions.add(cell.getTimestamp());
                    }
                }
                assertEquals(List.of(loadedAt), r1Versions, "the overwritten version was collected, the load kept");
            }
            TestCluster.drop(name);
        }
    }

    /** Asserts {@code call} fails with the load refusal naming {@code table}; returns it. */
    private static TableLoadingException assertRefused(TableName table, ThrowingCall call, String what) {
        TableLoadingException e = assertThrows(TableLoadingException.class, call::run, what);
        assertTrue(e.getMessage().contains(table.getNameAsString()), what + ": " + e.getMessage());
        return e;
    }

    private interface ThrowingCall {
        void run() throws Exception;
    }

    private static void commit(TransactionManager tm, TTable table, String row, String value) throws IOException {
        Transaction tx = tm.begin();
        table.put(tx, put(row, value));
        tm.commit(tx);
    }

    private static Map<String, String> scan(TransactionManager tm, TTable table) throws IOException {
        return LatestSnapshot.inNewTransaction(tm, tx -> scan(tx, table));
    }

    private static Map<String, String> scan(Transaction tx, TTable table) throws IOException {
        return LatestSnapshot.scan(tx, table, BulkLoadTest::value);
    }

    private static Cell shadowOf(TableName name, Cell data) throws IOException {
        try (Table raw = TestCluster.connection().getTable(name)) {
            Result r = raw.get(new Get(CellUtil.cloneRow(data)).addColumn(CellUtil.cloneFamily(data),
                    CellEncoding.shadowQualifier(CellUtil.cloneQualifier(data))).setTimestamp(data.getTimestamp()));
            assertFalse(r.isEmpty(), "loaded cell " + data + " has its shadow cell at the same version");
            return r.rawCells()[0];
        }
    }

    private static List<Cell> rawCells(TableName name) throws IOException {
        List<Cell> cells = new ArrayList<>();
        try (Table raw = TestCluster.connection().getTable(name);
             ResultScanner rows = raw.getScanner(new Scan().readAllVersions())) {
            for (Result r : rows) {
                for (Cell c : r.rawCells()) {
                    if (!CellEncoding.isMetadataQualifier(CellUtil.cloneQualifier(c))) {
                        cells.add(c);
                    }
                }
            }
        }
        return cells;
    }

    private static org.apache.hadoop.hbase.client.TableDescriptor descriptorOf(TableName name) throws IOException {
        try (Admin admin = TestCluster.connection().getAdmin()) {
            return admin.getDescriptor(name);
        }
    }

    private static Put put(String row, String value) {
        return new Put(row(row)).addColumn(F, Q, value(value));
    }

    private static String value(Result r) {
        return Bytes.toString(r.getValue(F, Q));
    }

    private static byte[] row(String row) {
        return Bytes.toBytes(row);
    }

    private static byte[] value(String value) {
        return Bytes.toBytes(value);
    }
}
