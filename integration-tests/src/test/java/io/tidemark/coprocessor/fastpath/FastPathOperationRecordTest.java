package io.tidemark.coprocessor.fastpath;

import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.table.TableFeature;
import io.tidemark.client.fastpath.FastPathTable;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.encoding.CellEncoding;
import io.tidemark.fastpath.FastPathProtocol.Operation;
import io.tidemark.fastpath.IdempotencyKey;
import io.tidemark.fastpath.OperationRecord;
import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.regionserver.HRegion;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static io.tidemark.testing.TestCluster.F;
import static io.tidemark.testing.TestCluster.G;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fast path's operation records (docs/fast-path.md, "Retries") as stored cells: one per stream and row, removed
 * once older than the TTL (by the next fast-path write of the row, and by compaction), and never seen by any reader.
 * Records of other streams are written by hand, with write times in the past.
 */
@ExtendWith(SharedTestClusters.class)
class FastPathOperationRecordTest {

    private static final byte[] Q = Bytes.toBytes("q");
    private static final long TTL = TidemarkConfig.FASTPATH_OPERATION_RECORD_TTL_MS.defaultValue();

    private static TestCluster env;

    @BeforeAll
    static void useSharedCluster(TestCluster shared) {
        env = shared;
    }

    @Test
    void aWriteRemovesTheRecordsOfStreamsOlderThanTheTtlAndKeepsItsOwn() throws Exception {
        TableName table = env.createTable("expiry", EnumSet.of(TableFeature.FAST_PATH));
        byte[] row = Bytes.toBytes("row");
        long now = System.currentTimeMillis();
        byte[] expired = plantRecord(table, row, G, now - TTL - 60_000);
        byte[] recent = plantRecord(table, row, F, now - 1_000);
        try (FastPathTable fp = env.fastPath(table)) {
            fp.put(new Put(row).addColumn(G, Q, Bytes.toBytes("v")));
            Set<String> records = records(table, row);
            assertEquals(2, records.size(), "the recent record and the writer's own: " + records);
            assertTrue(records.contains(name(F, recent)), records.toString());
            assertTrue(records.stream().noneMatch(r -> r.endsWith(Bytes.toHex(expired))), records.toString());
            assertTrue(records.stream().allMatch(r -> r.startsWith("f:")), "records live in the table's first"
                    + " family, whatever the operation wrote: " + records);

            fp.put(new Put(row).addColumn(F, Q, Bytes.toBytes("w")));
            assertEquals(2, records(table, row).size(), "a stream keeps one record per row");
        }
    }

    @Test
    void compactionDropsTheRecordsOlderThanTheTtl() throws Exception {
        TableName table = env.createTable("compacted", EnumSet.of(TableFeature.FAST_PATH));
        byte[] row = Bytes.toBytes("row");
        long now = System.currentTimeMillis();
        plantRecord(table, row, F, now - TTL - 60_000);
        byte[] recent = plantRecord(table, row, F, now - 1_000);
        compact(table);
        assertEquals(Set.of(name(F, recent)), records(table, row));
    }

    @Test
    void readersOnEveryPathNeverSeeOperationRecords() throws Exception {
        Set<TableFeature> serverSide = EnumSet.of(TableFeature.SERVER_SIDE_SNAPSHOTS, TableFeature.COMPACTION_GC,
                TableFeature.FAST_PATH);
        for (Set<TableFeature> features : List.of(serverSide, EnumSet.of(TableFeature.FAST_PATH))) {
            TableName table = env.createTable("readers", features);
            byte[] row = Bytes.toBytes("row");
            byte[] gone = Bytes.toBytes("gone");
            try (FastPathTable fp = env.fastPath(table)) {
                fp.put(new Put(row).addColumn(F, Q, Bytes.toBytes("f-value")).addColumn(G, Q, Bytes.toBytes("g")));
                fp.increment(row, G, Bytes.toBytes("n"), 3);
                fp.checkAndMutate(row, F, Q, Bytes.toBytes("no such value"), new Put(row).addColumn(F, Q,
                        Bytes.toBytes("not applied")));
                fp.put(new Put(gone).addColumn(F, Q, Bytes.toBytes("x")));
                fp.delete(new Delete(gone));
                assertTrue(!records(table, row).isEmpty() && !records(table, gone).isEmpty(), "records exist");

                List<String> expected = List.of("f:q=f-value", "g:n=3", "g:q=g");
                assertEquals(expected, cells(fp.get(new Get(row)).result()), features.toString());
                assertEquals(List.of(), cells(fp.get(new Get(gone)).result()), features.toString());
                assertGenericReadersSee(table, row, gone, expected, features);

                // A generic transaction that began after the fast-path writes may write the row: records are no
                // newer fast-path writes.
                Transaction tx = env.tm.begin();
                try (TTable t = new TTable(TestCluster.connection(), table)) {
                    t.put(tx, new Put(row).addColumn(F, Bytes.toBytes("r"), Bytes.toBytes("generic")));
                }
                env.tm.commit(tx);

                compact(table);
                List<String> afterCompaction = List.of("f:q=f-value", "f:r=generic", "g:n=3", "g:q=g");
                assertEquals(afterCompaction, cells(fp.get(new Get(row)).result()), features.toString());
                assertGenericReadersSee(table, row, gone, afterCompaction, features);
            }
        }
    }

    private static void assertGenericReadersSee(TableName table, byte[] row, byte[] gone, List<String> expected,
            Set<TableFeature> features) throws IOException {
        Transaction tx = env.tm.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            assertEquals(expected, cells(t.get(tx, new Get(row))), "get, " + features);
            assertEquals(List.of(), cells(t.get(tx, new Get(gone))), "get of a deleted row, " + features);
            List<String> familyF = new ArrayList<>();
            for (String c : expected) {
                if (c.startsWith("f:")) {
                    familyF.add(c);
                }
            }
            assertEquals(familyF, cells(t.get(tx, new Get(row).addFamily(F))), "get of the records' family, "
                    + features);
            List<List<String>> scanned = new ArrayList<>();
            try (ResultScanner scanner = t.getScanner(tx, new Scan())) {
                for (Result r = scanner.next(); r != null; r = scanner.next()) {
                    scanned.add(cells(r));
                }
            }
            assertEquals(List.of(expected), scanned, "scan, " + features);
        } finally {
            env.tm.commit(tx);
        }
    }

    /** Writes the record of a new stream, as a region server would have at {@code writtenAt}; returns its id. */
    private static byte[] plantRecord(TableName table, byte[] row, byte[] family, long writtenAt) throws IOException {
        byte[] stream = Bytes.toBytes(String.format("s-%014d", writtenAt));
        OperationRecord record = new OperationRecord(Operation.WRITE, 1, writtenAt, 1, true, 0);
        try (Table raw = TestCluster.connection().getTable(table)) {
            raw.put(new Put(row).addColumn(family, new IdempotencyKey(stream, 1).recordQualifier(),
                    CellEncoding.OPERATION_RECORD_TIMESTAMP, record.encode()));
        }
        return stream;
    }

    /** The record cells of the row, as "family:stream id in hex". */
    private static Set<String> records(TableName table, byte[] row) throws IOException {
        Set<String> records = new TreeSet<>();
        try (Table raw = TestCluster.connection().getTable(table)) {
            for (Cell c : raw.get(new Get(row).setTimeRange(
                    CellEncoding.OPERATION_RECORD_TIMESTAMP, CellEncoding.OPERATION_RECORD_TIMESTAMP + 1)).rawCells()) {
                byte[] q = CellUtil.cloneQualifier(c);
                assertTrue(CellEncoding.isOperationRecordQualifier(q, 0, q.length), Bytes.toStringBinary(q));
                records.add(name(CellUtil.cloneFamily(c), CellEncoding.userQualifier(q, 0, q.length)));
            }
        }
        return records;
    }

    private static String name(byte[] family, byte[] stream) {
        return Bytes.toString(family) + ":" + Bytes.toHex(stream);
    }

    private static List<String> cells(Result result) {
        List<String> cells = new ArrayList<>();
        for (Cell c : result.rawCells()) {
            byte[] value = CellUtil.cloneValue(c);
            cells.add(Bytes.toString(CellUtil.cloneFamily(c)) + ":" + Bytes.toString(CellUtil.cloneQualifier(c)) + "="
                    + (value.length == 8 && CellUtil.matchingQualifier(c, Bytes.toBytes("n"))
                    ? String.valueOf(Bytes.toLong(value)) : Bytes.toString(value)));
        }
        return cells;
    }

    private static void compact(TableName table) throws IOException {
        for (HRegion region : SharedMiniCluster.utility().getMiniHBaseCluster().getRegions(table)) {
            region.flush(true);
            region.compact(true);
        }
    }
}
