package io.tidemark.client;

import io.tidemark.client.tso.CommitResult;
import io.tidemark.client.tso.NettyTsoClient;
import io.tidemark.client.tso.TsoClient;
import io.tidemark.encoding.CellEncoding;
import io.tidemark.protocol.CommitMode;
import io.tidemark.testing.EachCommitMode;
import io.tidemark.testing.ForwardingTsoClient;
import io.tidemark.testing.TestCluster;
import io.tidemark.visibility.SnapshotQuery;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.params.ParameterizedTest;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tidemark.testing.TestCluster.F;
import static io.tidemark.testing.TestCluster.G;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Snapshot isolation, end to end: a real TSO per commit mode (the shared test cluster of each mode, with its own
 * timestamp and commit tables), real sockets, real HBase. Each mode has a data table of this class's; each test uses
 * its own rows.
 */
class SnapshotIsolationTest {

    private static final Map<CommitMode, TableName> TABLES = new EnumMap<>(CommitMode.class);
    private static final AtomicInteger ROWS = new AtomicInteger();

    private TestCluster env;
    private TransactionManager tm;
    private TTable table;

    private void use(TestCluster cluster) throws IOException {
        synchronized (TABLES) {
            if (!TABLES.containsKey(cluster.mode)) {
                TABLES.put(cluster.mode, cluster.createTable("data", Set.of()));
            }
        }
        env = cluster;
        tm = env.tm;
        table = new TTable(TestCluster.connection(), TABLES.get(cluster.mode));
    }

    @ParameterizedTest
    @EachCommitMode
    void noDirtyReads(TestCluster cluster) throws IOException {
        use(cluster);
        String row = row("dirty");
        seed(row, "x", "0");
        Transaction writer = tm.begin();
        put(writer, row, "x", "1");
        Transaction reader = tm.begin();
        assertEquals("0", read(reader, row, "x"));
        if (cluster.mode == CommitMode.LOW_LATENCY) {
            // The reader could not wait for an undecided writer, so it invalidated it.
            TransactionAbortedException e = assertThrows(TransactionAbortedException.class, () -> tm.commit(writer));
            assertEquals(TransactionAbortedException.Reason.INVALIDATED, e.reason());
            assertEquals("0", readCommitted(row, "x"));
        } else {
            tm.commit(writer);
            assertEquals("1", readCommitted(row, "x"));
        }
        assertEquals("0", read(reader, row, "x"));
        tm.commit(reader);
    }

    @ParameterizedTest
    @EachCommitMode
    void snapshotStaysStableWhileOthersCommit(TestCluster cluster) throws IOException {
        use(cluster);
        String row = row("stable");
        seed(row, "x", "0");
        Transaction reader = tm.begin();
        assertEquals("0", read(reader, row, "x"));
        Transaction beganAfter = tm.begin();
        put(beganAfter, row, "x", "1");
        tm.commit(beganAfter);
        assertEquals("0", read(reader, row, "x"));

        Transaction beganBefore = tm.begin();
        put(beganBefore, row, "x", "2");
        Transaction laterReader = tm.begin();
        tm.commit(beganBefore);
        // Began before laterReader, but committed after it began: not in its snapshot.
        assertEquals("1", read(laterReader, row, "x"));
        assertEquals("0", read(reader, row, "x"));
        assertEquals("2", readCommitted(row, "x"));
    }

    @ParameterizedTest
    @EachCommitMode
    void lostUpdateIsPrevented(TestCluster cluster) throws IOException {
        use(cluster);
        String row = row("lost");
        seed(row, "x", "10");
        Transaction t1 = tm.begin();
        Transaction t2 = tm.begin();
        int seen1 = Integer.parseInt(read(t1, row, "x"));
        int seen2 = Integer.parseInt(read(t2, row, "x"));
        put(t1, row, "x", String.valueOf(seen1 + 1));
        put(t2, row, "x", String.valueOf(seen2 + 5));
        tm.commit(t1);
        TransactionAbortedException e = assertThrows(TransactionAbortedException.class, () -> tm.commit(t2));
        assertEquals(TransactionAbortedException.Reason.CONFLICT, e.reason());
        assertEquals(TransactionState.ROLLED_BACK, t2.state());
        assertEquals("11", readCommitted(row, "x"));
    }

    @ParameterizedTest
    @EachCommitMode
    void readSkewIsPrevented(TestCluster cluster) throws IOException {
        use(cluster);
        String row = row("skew");
        Transaction seed = tm.begin();
        put(seed, row, "x", "50");
        put(seed, row, "y", "50");
        tm.commit(seed);

        Transaction reader = tm.begin();
        int x = Integer.parseInt(read(reader, row, "x"));
        Transaction transfer = tm.begin();
        put(transfer, row, "x", "25");
        put(transfer, row, "y", "75");
        tm.commit(transfer);
        int y = Integer.parseInt(read(reader, row, "y"));
        assertEquals(100, x + y);
        assertEquals(50, y);
    }

    @ParameterizedTest
    @EachCommitMode
    void writeSkewIsAllowed(TestCluster cluster) throws IOException {
        use(cluster);
        String row = row("wskew");
        Transaction seed = tm.begin();
        put(seed, row, "x", "1");
        put(seed, row, "y", "1");
        tm.commit(seed);

        Transaction t1 = tm.begin();
        Transaction t2 = tm.begin();
        assertEquals("1", read(t1, row, "y"));
        assertEquals("1", read(t2, row, "x"));
        put(t1, row, "x", "0");
        put(t2, row, "y", "0");
        tm.commit(t1);
        tm.commit(t2);
        assertEquals("0", readCommitted(row, "x"));
        assertEquals("0", readCommitted(row, "y"));
    }

    @ParameterizedTest
    @EachCommitMode
    void readYourOwnWrites(TestCluster cluster) throws IOException {
        use(cluster);
        String row = row("own");
        seed(row, "x", "old");
        Transaction tx = tm.begin();
        put(tx, row, "x", "mine");
        put(tx, row, "y", "new");
        assertEquals("mine", read(tx, row, "x"));
        assertEquals("new", read(tx, row, "y"));
        try (ResultScanner scanner = table.getScanner(tx, prefixScan(row))) {
            Result r = scanner.next();
            assertNotNull(r);
            assertEquals("mine", Bytes.toString(r.getValue(F, q("x"))));
            assertNull(scanner.next());
        }
        Transaction other = tm.begin();
        tm.commit(tx);
        assertEquals("mine", readCommitted(row, "x"));
        tm.rollback(other);
    }

    @ParameterizedTest
    @EachCommitMode
    void scanSeesExactlyTheSnapshot(TestCluster cluster) throws IOException {
        use(cluster);
        String prefix = row("scan");
        Transaction seed = tm.begin();
        for (int i = 0; i < 6; i++) {
            put(seed, prefix + "-" + i, "x", "v" + i);
        }
        tm.commit(seed);

        Transaction reader = tm.begin();
        Transaction writer = tm.begin();
        put(writer, prefix + "-1", "x", "changed");
        table.delete(writer, new Delete(Bytes.toBytes(prefix + "-2")));
        put(writer, prefix + "-9", "x", "inserted");
        tm.commit(writer);

        assertEquals(List.of(prefix + "-0=v0", prefix + "-1=v1", prefix + "-2=v2", prefix + "-3=v3",
                prefix + "-4=v4", prefix + "-5=v5"), scan(reader, prefixScan(prefix)));
        Transaction after = tm.begin();
        assertEquals(List.of(prefix + "-0=v0", prefix + "-1=changed", prefix + "-3=v3", prefix + "-4=v4",
                prefix + "-5=v5", prefix + "-9=inserted"), scan(after, prefixScan(prefix)));
        // The row limit counts visible rows, so the deleted row does not use up the limit.
        assertEquals(List.of(prefix + "-1=changed", prefix + "-3=v3"),
                scan(after, prefixScan(prefix).withStartRow(Bytes.toBytes(prefix + "-1")).setLimit(2)));
    }

    @ParameterizedTest
    @EachCommitMode
    void emptyValueIsAnOrdinaryValue(TestCluster cluster) throws IOException {
        use(cluster);
        String row = row("empty");
        Transaction tx = tm.begin();
        table.put(tx, new Put(Bytes.toBytes(row)).addColumn(F, q("x"), new byte[0]));
        tm.commit(tx);
        Transaction reader = tm.begin();
        Result r = table.get(reader, new Get(Bytes.toBytes(row)).addColumn(F, q("x")));
        assertArrayEquals(new byte[0], r.getValue(F, q("x")));
        assertTrue(table.exists(reader, new Get(Bytes.toBytes(row))));
    }

    @ParameterizedTest
    @EachCommitMode
    void deleteOfAColumnHidesOnlyThatColumn(TestCluster cluster) throws IOException {
        use(cluster);
        String row = row("delcol");
        Transaction seed = tm.begin();
        put(seed, row, "a", "1");
        put(seed, row, "b", "2");
        put(seed, row, "c", "3");
        tm.commit(seed);
        Transaction tx = tm.begin();
        table.delete(tx, new Delete(Bytes.toBytes(row)).addColumns(F, q("a")));
        table.delete(tx, new Delete(Bytes.toBytes(row)).addColumn(F, q("b")));
        assertNull(read(tx, row, "a"));
        tm.commit(tx);
        assertNull(readCommitted(row, "a"));
        assertNull(readCommitted(row, "b"));
        assertEquals("3", readCommitted(row, "c"));
    }

    @ParameterizedTest
    @EachCommitMode
    void deleteOfAFamilyHidesEveryColumnOfTheFamily(TestCluster cluster) throws IOException {
        use(cluster);
        String row = row("delfam");
        byte[] r = Bytes.toBytes(row);
        Transaction seed = tm.begin();
        table.put(seed, new Put(r).addColumn(F, q("a"), Bytes.toBytes("1")).addColumn(F, q("b"), Bytes.toBytes("2"))
                .addColumn(G, q("a"), Bytes.toBytes("3")));
        tm.commit(seed);
        Transaction tx = tm.begin();
        put(tx, row, "own", "written in this transaction");
        table.delete(tx, new Delete(r).addFamily(F));
        tm.commit(tx);
        Result after = table.get(tm.begin(), new Get(r));
        assertEquals(1, after.size());
        assertEquals("3", Bytes.toString(after.getValue(G, q("a"))));
    }

    @ParameterizedTest
    @EachCommitMode
    void deleteOfARowHidesEveryColumn(TestCluster cluster) throws IOException {
        use(cluster);
        String row = row("delrow");
        byte[] r = Bytes.toBytes(row);
        Transaction seed = tm.begin();
        table.put(seed, new Put(r).addColumn(F, q("a"), Bytes.toBytes("1")).addColumn(G, q("b"), Bytes.toBytes("2")));
        tm.commit(seed);
        Transaction before = tm.begin();
        Transaction tx = tm.begin();
        table.delete(tx, new Delete(r));
        assertFalse(table.exists(tx, new Get(r)));
        tm.commit(tx);
        Transaction after = tm.begin();
        assertFalse(table.exists(after, new Get(r)));
        assertEquals(List.of(), scan(after, prefixScan(row)));
        assertEquals(2, table.get(before, new Get(r)).size());
    }

    @ParameterizedTest
    @EachCommitMode
    void deleteThenPutInOneTransactionKeepsThePut(TestCluster cluster) throws IOException {
        use(cluster);
        String row = row("delput");
        seed(row, "x", "old");
        Transaction tx = tm.begin();
        table.delete(tx, new Delete(Bytes.toBytes(row)).addColumns(F, q("x")));
        assertNull(read(tx, row, "x"));
        put(tx, row, "x", "again");
        assertEquals("again", read(tx, row, "x"));
        put(tx, row, "y", "then deleted");
        table.delete(tx, new Delete(Bytes.toBytes(row)).addColumns(F, q("y")));
        assertNull(read(tx, row, "y"));
        tm.commit(tx);
        assertEquals("again", readCommitted(row, "x"));
        assertNull(readCommitted(row, "y"));
    }

    @ParameterizedTest
    @EachCommitMode
    void rollbackRemovesTentativeCells(TestCluster cluster) throws IOException {
        use(cluster);
        String row = row("rollback");
        seed(row, "x", "kept");
        Transaction tx = tm.begin();
        put(tx, row, "x", "discarded");
        table.delete(tx, new Delete(Bytes.toBytes(row)).addColumns(F, q("x")));
        tm.rollback(tx);
        assertEquals(TransactionState.ROLLED_BACK, tx.state());
        try (Table raw = TestCluster.connection().getTable(table.getName())) {
            Result atStart = raw.get(new Get(Bytes.toBytes(row)).setTimestamp(tx.startTimestamp()));
            assertTrue(atStart.isEmpty(), "no cell may remain at the rolled-back version: " + atStart);
        }
        assertEquals("kept", readCommitted(row, "x"));
    }

    @ParameterizedTest
    @EachCommitMode
    void readOnlyTransactionCommitsWithoutTso(TestCluster cluster) throws IOException {
        use(cluster);
        String row = row("readonly");
        seed(row, "x", "1");
        try (CountingTsoClient counting = new CountingTsoClient(NettyTsoClient.create(
                env.config, TestCluster.connection().getConfiguration()));
             TransactionManager countingTm = env.managerBuilder().tsoClient(counting).build()) {
            Transaction tx = countingTm.begin();
            assertEquals("1", read(tx, row, "x"));
            countingTm.commit(tx);
            assertEquals(TransactionState.COMMITTED, tx.state());
            assertEquals(tx.startTimestamp(), tx.commitTimestamp());
            assertEquals(0, counting.commits.get());
        }
    }

    @ParameterizedTest
    @EachCommitMode
    void differentColumnsOfOneRowDoNotConflictAtCellLevel(TestCluster cluster) throws IOException {
        use(cluster);
        String row = row("cell");
        Transaction t1 = tm.begin();
        Transaction t2 = tm.begin();
        put(t1, row, "a", "1");
        put(t2, row, "b", "2");
        tm.commit(t1);
        tm.commit(t2);
        assertEquals("1", readCommitted(row, "a"));
        assertEquals("2", readCommitted(row, "b"));
    }

@ParameterizedTest
    @EachCommitMode
    void olderVersionsAreFetchedWhenTheNewestAreInvisible(TestCluster cluster) throws IOException {
        use(cluster);
        String row = row("deep");
        seed(row, "x", "visible");
        // More undecided versions below the snapshot than one read fetches (writers that never finish): the reader
        // must look further back to find the committed one.
        for (int i = 0; i < SnapshotQuery.VERSIONS_PER_READ + 2; i++) {
            put(tm.begin(), row, "x", "abandoned" + i);
        }
        Transaction reader = tm.begin();
        assertEquals("visible", read(reader, row, "x"));
        try (ResultScanner scanner = table.getScanner(reader, prefixScan(row))) {
            assertEquals("visible", Bytes.toString(scanner.next().getValue(F, q("x"))));
        }
    }

    @ParameterizedTest
    @EachCommitMode
    void batchRunsPutsDeletesAndGets(TestCluster cluster) throws IOException {
        use(cluster);
        String row = row("batch");
        seed(row, "gone", "1");
        Transaction tx = tm.begin();
        byte[] r = Bytes.toBytes(row);
        Object[] results = new Object[3];
        table.batch(tx, List.of(new Put(r).addColumn(F, q("x"), Bytes.toBytes("b")),
                new Delete(r).addColumns(F, q("gone")), new Get(r)), results);
        Result got = (Result) results[2];
        assertEquals("b", Bytes.toString(got.getValue(F, q("x"))));
        assertNull(got.getValue(F, q("gone")));
        tm.commit(tx);
        assertEquals("b", readCommitted(row, "x"));
    }

    @ParameterizedTest
    @EachCommitMode
    void committedWritesCarryShadowCells(TestCluster cluster) throws IOException {
        use(cluster);
        String row = row("shadow");
        Transaction tx = tm.begin();
        put(tx, row, "x", "1");
        tm.commit(tx);
        try (Table raw = TestCluster.connection().getTable(table.getName())) {
            Cell shadow = raw.get(new Get(Bytes.toBytes(row)).addColumn(F, CellEncoding.shadowQualifier(q("x"))))
                    .rawCells()[0];
            assertEquals(tx.startTimestamp(), shadow.getTimestamp());
            assertEquals(tx.commitTimestamp(), Bytes.toLong(shadow.getValueArray(), shadow.getValueOffset()));
        }
        assertTrue(env.commitTable.lookup(tx.startTimestamp()).isAbsent(), "the commit record is removed after"
                + " the shadow cells are written");
    }

    @ParameterizedTest
    @EachCommitMode
    void asyncPostCommitWritesShadowCellsInTheBackground(TestCluster cluster) throws IOException {
        use(cluster);
        String row = row("async");
        Transaction tx;
        try (TransactionManager asyncTm = env.managerBuilder().postCommit(PostCommitMode.ASYNC).build()) {
            tx = asyncTm.begin();
            put(tx, row, "x", "async");
            asyncTm.commit(tx);
            assertEquals(TransactionState.COMMITTED, tx.state());
            // Visible at once, whether or not the shadow cells are there yet.
            assertEquals("async", readCommitted(row, "x"));
        }
        // close() waits for the background post-commit.
        try (Table raw = TestCluster.connection().getTable(table.getName())) {
            assertFalse(raw.get(new Get(Bytes.toBytes(row)).addColumn(F, CellEncoding.shadowQualifier(q("x"))))
                    .isEmpty());
        }
        assertTrue(env.commitTable.lookup(tx.startTimestamp()).isAbsent());
    }

    @ParameterizedTest
    @EachCommitMode
    void existenceOnlyGetAnswersWithTheFlag(TestCluster cluster) throws IOException {
        use(cluster);
        String row = row("exists");
        seed(row, "x", "1");
        Transaction tx = tm.begin();
        Result present = table.get(tx, new Get(Bytes.toBytes(row)).setCheckExistenceOnly(true));
        Result absent = table.get(tx, new Get(Bytes.toBytes(row + "-none")).setCheckExistenceOnly(true));
        assertTrue(present.getExists());
        assertFalse(absent.getExists());
        assertTrue(table.exists(tx, new Get(Bytes.toBytes(row)).setCheckExistenceOnly(true)));
        tm.commit(tx);
    }

    @ParameterizedTest
    @EachCommitMode
    void concurrentTransfersPreserveTheTotal(TestCluster cluster) throws Exception {
        use(cluster);
        String prefix = row("bank");
        int accounts = 5;
        Transaction seed = tm.begin();
        for (int i = 0; i < accounts; i++) {
            put(seed, prefix + "-" + i, "x", "100");
        }
        tm.commit(seed);

        int threads = 4;
        int transfersPerThread = 20;
        ExecutorService pool = Executors.newFixedThreadPool(threads + 1);
        try {
            List<Future<Integer>> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int seedValue = t;
                workers.add(pool.submit(() -> transfer(prefix, accounts, transfersPerThread, seedValue)));
            }
            Future<Integer> auditor = pool.submit(() -> {
                int audits = 0;
                while (workers.stream().anyMatch(w -> !w.isDone()) || audits == 0) {
                    assertEquals(100 * accounts, total(prefix));
                    audits++;
                }
                return audits;
            });
            for (Future<Integer> w : workers) {
                assertEquals(transfersPerThread, w.get(120, TimeUnit.SECONDS));
            }
            assertTrue(auditor.get(120, TimeUnit.SECONDS) > 0);
        } finally {
            pool.shutdownNow();
        }
        assertEquals(100 * accounts, total(prefix));
    }

    /** Moves random amounts between random accounts, retrying aborted transactions; returns the committed count. */
    private int transfer(String prefix, int accounts, int transfers, int seed) throws IOException {
        Random random = new Random(seed);
        try (TTable t = new TTable(TestCluster.connection(), table.getName())) {
            int committed = 0;
            while (committed < transfers) {
                String from = prefix + "-" + random.nextInt(accounts);
                String to = prefix + "-" + random.nextInt(accounts);
                if (from.equals(to)) {
                    continue;
                }
                int amount = 1 + random.nextInt(10);
                Transaction tx = tm.begin();
                int fromBalance = Integer.parseInt(Bytes.toString(t.get(tx, new Get(Bytes.toBytes(from))
                        .addColumn(F, q("x"))).getValue(F, q("x"))));
                int toBalance = Integer.parseInt(Bytes.toString(t.get(tx, new Get(Bytes.toBytes(to))
                        .addColumn(F, q("x"))).getValue(F, q("x"))));
                t.put(tx, List.of(
                        new Put(Bytes.toBytes(from)).addColumn(F, q("x"), Bytes.toBytes(String.valueOf(fromBalance
                                - amount))),
                        new Put(Bytes.toBytes(to)).addColumn(F, q("x"), Bytes.toBytes(String.valueOf(toBalance
                                + amount)))));
                try {
                    tm.commit(tx);
                    committed++;
                } catch (TransactionAbortedException e) {
                    // Conflicts (and, in low-latency mode, invalidation by the auditor) are expected: retry.
                }
            }
            return committed;
        }
    }

    private int total(String prefix) throws IOException {
        try (TTable t = new TTable(TestCluster.connection(), table.getName())) {
            Transaction tx = tm.begin();
            int sum = 0;
            try (ResultScanner scanner = t.getScanner(tx, prefixScan(prefix))) {
                for (Result r : scanner) {
                    sum += Integer.parseInt(Bytes.toString(r.getValue(F, q("x"))));
                }
            }
            tm.commit(tx);
            return sum;
        }
    }

    // --- helpers ---

    private static String row(String prefix) {
        return prefix + "-" + ROWS.incrementAndGet();
    }

    private static byte[] q(String qualifier) {
        return Bytes.toBytes(qualifier);
    }

    private static Scan prefixScan(String prefix) {
        return new Scan().withStartRow(Bytes.toBytes(prefix)).withStopRow(Bytes.toBytes(prefix + "\uffff"));
    }

    private void put(Transaction tx, String row, String column, String value) throws IOException {
        table.put(tx, new Put(Bytes.toBytes(row)).addColumn(F, q(column), Bytes.toBytes(value)));
    }

    private String read(Transaction tx, String row, String column) throws IOException {
        Result r = table.get(tx, new Get(Bytes.toBytes(row)).addColumn(F, q(column)));
        byte[] value = r.getValue(F, q(column));
        return value == null ? null : Bytes.toString(value);
    }

    private void seed(String row, String column, String value) throws IOException {
        Transaction tx = tm.begin();
        put(tx, row, column, value);
        tm.commit(tx);
    }

    private String readCommitted(String row, String column) throws IOException {
        Transaction tx = tm.begin();
        String value = read(tx, row, column);
        tm.commit(tx);
        return value;
    }

    /** Row=value of column f:x for every visible row. */
    private List<String> scan(Transaction tx, Scan scan) throws IOException {
        List<String> rows = new ArrayList<>();
        try (ResultScanner scanner = table.getScanner(tx, scan)) {
            for (Result r : scanner) {
                byte[] x = r.getValue(F, q("x"));
                rows.add(Bytes.toString(r.getRow()) + "=" + (x == null ? "" : Bytes.toString(x)));
            }
        }
        return rows;
    }

    /** Counts COMMIT requests on their way to the real TSO. */
    static final class CountingTsoClient extends ForwardingTsoClient {
        final AtomicInteger commits = new AtomicInteger();

        CountingTsoClient(TsoClient delegate) {
            super(delegate);
        }

        @Override
        public CompletableFuture<CommitResult> commit(long startTimestamp, long commitToken, long[] writeSet,
                                                      long[] tableIds) {
            commits.incrementAndGet();
            return super.commit(startTimestamp, commitToken, writeSet, tableIds);
        }
    }
}
