package io.tidemark.coprocessor.snapshot;

import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.table.TableFeature;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;

import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Transactional scans over tables split into many regions, some empty, some holding only versions the snapshot does
 * not see (a crashed writer, a deletion, a writer still running), on both read paths: resolved by the region servers
 * (snapshot coprocessor) and by the client. A region with nothing visible must never end the scan (issue 8 item 3:
 * HBase reads "filter done and no results" from a region scanner as the end of the whole scan).
 */
@ExtendWith(SharedTestClusters.class)
class ScanAcrossRegionsTest {

    private static final byte[] Q = Bytes.toBytes("q");
    /** Regions: [,b) [b,d) [d,f) [f,h) [h,m) [m,t) [t,). */
    private static final byte[][] SPLITS = {Bytes.toBytes("b"), Bytes.toBytes("d"), Bytes.toBytes("f"),
            Bytes.toBytes("h"), Bytes.toBytes("m"), Bytes.toBytes("t")};

    private static TestCluster cluster;

    @BeforeAll
    static void useSharedCluster(TestCluster shared) {
        cluster = shared;
    }

    /** The reproduction: split at m and t, one committed row in the last region. */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aScanFindsARowBehindEmptyRegions(boolean serverSide) throws IOException {
        TableName name = table(serverSide, Bytes.toBytes("m"), Bytes.toBytes("t"));
        try (TTable table = new TTable(TestCluster.connection(), name)) {
            Transaction writer = cluster.tm.begin();
            table.put(writer, new Put(Bytes.toBytes("z1")).addColumn(F, Q, Bytes.toBytes("v")));
            cluster.tm.commit(writer);

            Transaction reader = cluster.tm.begin();
            assertEquals("v", Bytes.toString(table.get(reader, new Get(Bytes.toBytes("z1"))).getValue(F, Q)));
            assertEquals(List.of("z1"), rows(table, reader, new Scan()));
            assertEquals(List.of("z1"), rows(table, reader, new Scan().setReversed(true)));
            cluster.tm.rollback(reader);
        } finally {
            TestCluster.drop(name);
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void scansPassEmptyAndInvisibleRegions(boolean serverSide) throws IOException {
        TableName name = table(serverSide, SPLITS);
        try (TTable table = new TTable(TestCluster.connection(), name)) {
            commit(table, "a1", "k1", "g1", "z1");
            Transaction deleter = cluster.tm.begin();
            table.delete(deleter, new Delete(Bytes.toBytes("g1")));
            cluster.tm.commit(deleter);
            Transaction overwriter = cluster.tm.begin();
            table.delete(overwriter, new Delete(Bytes.toBytes("k1")));
            cluster.tm.commit(overwriter);
            Transaction crashed = cluster.tm.begin();
            table.put(crashed, new Put(Bytes.toBytes("c1")).addColumn(F, Q, Bytes.toBytes("crashed")));
            Transaction running = cluster.tm.begin();
            table.put(running, new Put(Bytes.toBytes("p1")).addColumn(F, Q, Bytes.toBytes("running")));

            Transaction reader = cluster.tm.begin();
            // The reader's own write, behind every empty and invisible region.
            table.put(reader, new Put(Bytes.toBytes("z2")).addColumn(F, Q, Bytes.toBytes("own")));

            assertEquals(List.of("a1", "z1", "z2"), rows(table, reader, new Scan()));
            assertEquals(List.of("z2", "z1", "a1"), rows(table, reader, new Scan().setReversed(true)));
            assertEquals(List.of("a1"), rows(table, reader, new Scan().setLimit(1)));
            assertEquals(List.of("a1", "z1"), rows(table, reader, new Scan().setLimit(2)));
            assertEquals(List.of("z2"), rows(table, reader, new Scan().setReversed(true).setLimit(1)));
            assertEquals(List.of("z2", "z1"), rows(table, reader, new Scan().setReversed(true).setLimit(2)));
            // Start and stop inside empty or invisible regions.
            assertEquals(List.of("z1", "z2"), rows(table, reader, new Scan().withStartRow(Bytes.toBytes("e"))));
            assertEquals(List.of("z1"), rows(table, reader,
                    new Scan().withStartRow(Bytes.toBytes("c")).withStopRow(Bytes.toBytes("z15"))));
            assertEquals(List.of(), rows(table, reader,
                    new Scan().withStartRow(Bytes.toBytes("b")).withStopRow(Bytes.toBytes("s"))));
            assertEquals(List.of("a1"), rows(table, reader,
                    new Scan().withStartRow(Bytes.toBytes("s")).setReversed(true)));
            assertEquals(List.of(), rows(table, reader, new Scan().withStartRow(Bytes.toBytes("s"))
                    .withStopRow(Bytes.toBytes("b")).setReversed(true)));
            // Caching of one row per RPC: every region is its own round trip.
            assertEquals(List.of("a1", "z1", "z2"), rows(table, reader, new Scan().setCaching(1)));
            cluster.tm.rollback(reader);
            cluster.tm.rollback(running);
        } finally {
            TestCluster.drop(name);
        }
    }

    @Test
    void sparseRowsInManyRegionsAreAllFound() throws IOException {
        byte[][] splits = new byte[9][];
        for (int i = 0; i < splits.length; i++) {
            splits[i] = Bytes.toBytes(String.format("r%02d", (i + 1) * 10));
        }
        for (boolean serverSide : new boolean[] {true, false}) {
            TableName name = table(serverSide, splits);
            try (TTable table = new TTable(TestCluster.connection(), name)) {
                // Rows in regions 0, 3, 4 and 9 only: runs of empty regions between them and before the end.
                List<String> expected = List.of("r01", "r07", "r33", "r41", "r48", "r95");
                commit(table, expected.toArray(new String[0]));
                Transaction reader = cluster.tm.begin();
                assertEquals(expected, rows(table, reader, new Scan()), "server side: " + serverSide);
                List<String> reversed = new ArrayList<>(expected);
                Collections.reverse(reversed);
                assertEquals(reversed, rows(table, reader, new Scan().setReversed(true)), "server side: "
                        + serverSide);
                assertEquals(expected.subList(0, 4), rows(table, reader, new Scan().setLimit(4)));
                cluster.tm.rollback(reader);
            } finally {
                TestCluster.drop(name);
            }
        }
    }

    private static TableName table(boolean serverSide, byte[]... splits) throws IOException {
        return cluster.createTable(serverSide ? "server" : "client",
                serverSide ? TableFeature.DEFAULT : EnumSet.noneOf(TableFeature.class), splits);
    }

    private static void commit(TTable table, String... rows) throws IOException {
        Transaction tx = cluster.tm.begin();
        for (String row : rows) {
            table.put(tx, new Put(Bytes.toBytes(row)).addColumn(F, Q, Bytes.toBytes(row)));
        }
        cluster.tm.commit(tx);
    }

    private static List<String> rows(TTable table, Transaction tx, Scan scan) throws IOException {
        List<String> rows = new ArrayList<>();
        try (ResultScanner scanner = table.getScanner(tx, scan)) {
            for (Result r : scanner) {
                rows.add(Bytes.toString(r.getRow()));
            }
        }
        return rows;
    }
}
