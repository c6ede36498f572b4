package io.tidemark.coprocessor.snapshot;

import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionAbortedException;
import io.tidemark.client.TransactionManager;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.StagedFailures;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.ColumnPaginationFilter;
import org.apache.hadoop.hbase.filter.ColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.filter.PageFilter;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.filter.ValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static io.tidemark.testing.TestCluster.F;
import static io.tidemark.testing.TestCluster.G;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * User filters on the server-side path see only snapshot-visible cells: every filtered read of the transactional
 * table returns exactly what the same filter returns on a plain HBase table holding that snapshot, although the
 * transactional table also holds overwritten, aborted, crashed and uncommitted versions that would match.
 */
@ExtendWith(SharedTestClusters.class)
class ServerSideFilterTest {

    private static final byte[] MATCH = Bytes.toBytes("match");
    private static final byte[][] VALUES = {MATCH, Bytes.toBytes("other"), Bytes.toBytes("x")};
    private static final byte[][] QUALIFIERS = {Bytes.toBytes("a"), Bytes.toBytes("b"), Bytes.toBytes("c")};
    private static final int ROWS = 15;

    private static TestCluster cluster;
    private static TableName transactional;
    private static TableName snapshotCopy;

    @BeforeAll
    static void writeHistory(TestCluster shared) throws Exception {
        cluster = shared;
        transactional = cluster.createTransactionalTable("data");
        long seed = System.nanoTime();
        Random random = new Random(seed);
        try (TransactionManager crashAfterRecord = StagedFailures.withoutShadowCells(cluster.managerBuilder());
             TTable table = new TTable(TestCluster.connection(), transactional)) {
            for (int i = 0; i < 80; i++) {
                TransactionManager tm = random.nextInt(8) == 0 ? crashAfterRecord : cluster.tm;
                Transaction tx = tm.begin();
                for (int m = 0; m < 3; m++) {
                    byte[] row = row(random.nextInt(ROWS));
                    byte[] family = random.nextBoolean() ? F : G;
                    byte[] q = QUALIFIERS[random.nextInt(QUALIFIERS.length)];
                    if (random.nextInt(6) == 0) {
                        table.delete(tx, new Delete(row).addColumns(family, q));
                    } else {
                        table.put(tx, new Put(row).addColumn(family, q, VALUES[random.nextInt(VALUES.length)]));
                    }
                }
                int outcome = random.nextInt(10);
                if (outcome < 7) {
                    try {
                        tm.commit(tx);
                    } catch (TransactionAbortedException e) {
                        // A conflict: its versions stay invisible, which is what this test needs too.
                    }
                } else if (outcome < 9) {
                    tm.rollback(tx);
                }
                // else: the client "crashed" before committing; its tentative versions stay behind.
            }
        }
        snapshotCopy = copyOfSnapshot();
    }

    @AfterAll
    static void cleanUp() throws IOException {
        TestCluster.drop(transactional);
        TestCluster.drop(snapshotCopy);
    }

    @Test
    void filtersSeeOnlyTheSnapshot() throws IOException {
        Map<String, Filter> filters = new LinkedHashMap<>();
        filters.put("ValueFilter", new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(MATCH)));
        SingleColumnValueFilter byColumn = new SingleColumnValueFilter(F, QUALIFIERS[0], CompareOperator.EQUAL,
                MATCH);
        byColumn.setFilterIfMissing(true);
        filters.put("SingleColumnValueFilter", byColumn);
        filters.put("PrefixFilter", new PrefixFilter(Bytes.toBytes("r1")));
        filters.put("PageFilter", new PageFilter(4));
        filters.put("ColumnPaginationFilter", new ColumnPaginationFilter(2, 1));
        filters.put("ColumnPrefixFilter", new ColumnPrefixFilter(Bytes.toBytes("b")));
        filters.put("KeyOnlyFilter", new KeyOnlyFilter());
        filters.put("FilterList", new FilterList(FilterList.Operator.MUST_PASS_ALL,
                new PrefixFilter(Bytes.toBytes("r0")),
                new ValueFilter(CompareOperator.NOT_EQUAL, new BinaryComparator(VALUES[1]))));

        Transaction tx = cluster.tm.begin();
        try (TTable table = new TTable(TestCluster.connection(), transactional);
             Table plain = TestCluster.connection().getTable(snapshotCopy)) {
            assertEquals(cells(plain.getScanner(new Scan())), cells(table.getScanner(tx, new Scan())),
                    "the copy holds the snapshot");
            for (Map.Entry<String, Filter> f : filters.entrySet()) {
                List<String> expected = cells(plain.getScanner(new Scan().setFilter(f.getValue())));
                List<String> actual = cells(table.getScanner(tx, new Scan().setFilter(f.getValue())));
                assertEquals(expected, actual, f.getKey() + " on a scan");
                for (int i = 0; i < ROWS; i++) {
                    Get get = new Get(row(i)).setFilter(f.getValue());
                    assertEquals(cells(plain.get(get)), cells(table.get(tx, get)), f.getKey() + " on a get");
                }
            }
            ValueFilter matching = new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(MATCH));
            assertFalse(cells(plain.getScanner(new Scan().setFilter(matching))).isEmpty(),
                    "the history leaves visible matches");
        }
        cluster.tm.rollback(tx);
    }

    /** A plain single-region table holding exactly what a new transaction's snapshot shows. */
    private static TableName copyOfSnapshot() throws IOException {
        TableName copy = cluster.createPlainTable("copy", 1);
        Transaction tx = cluster.tm.begin();
        try (TTable table = new TTable(TestCluster.connection(), transactional);
             ResultScanner rows = table.getScanner(tx, new Scan());
             Table plain = TestCluster.connection().getTable(copy)) {
            List<Put> puts = new ArrayList<>();
            for (Result r : rows) {
                Put p = new Put(r.getRow());
                for (Cell c : r.rawCells()) {
                    p.add(c);
                }
                puts.add(p);
            }
            assertTrue(puts.size() > ROWS / 2, "the history leaves rows");
            plain.put(puts);
        }
        cluster.tm.rollback(tx);
        return copy;
    }

    private static List<String> cells(ResultScanner scanner) throws IOException {
        List<String> cells = new ArrayList<>();
        try (ResultScanner s = scanner) {
            for (Result r : s) {
                cells.addAll(cells(r));
            }
        }
        return cells;
    }

    private static List<String> cells(Result r) {
        List<String> cells = new ArrayList<>();
        for (Cell c : r.rawCells()) {
            cells.add(Bytes.toString(CellUtil.cloneRow(c)) + "/" + Bytes.toString(CellUtil.cloneFamily(c)) + ":"
                    + Bytes.toString(CellUtil.cloneQualifier(c)) + "@" + c.getTimestamp() + "="
                    + Bytes.toStringBinary(CellUtil.cloneValue(c)));
        }
        cells.add("|");
        return cells;
    }

    private static byte[] row(int i) {
        return Bytes.toBytes(String.format("r%02d", i));
    }
}
