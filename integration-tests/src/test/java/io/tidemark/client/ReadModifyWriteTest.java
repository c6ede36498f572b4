package io.tidemark.client;

import io.tidemark.table.TableFeature;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.CheckAndMutateResult;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Increment, Append, checkAndMutate and RowMutations inside generic transactions, against a real HBase and TSO. */
@ExtendWith(SharedTestClusters.class)
class ReadModifyWriteTest {

    private static final byte[] Q = Bytes.toBytes("q");
    private static final byte[] R = Bytes.toBytes("r");
    private static final AtomicInteger ROWS = new AtomicInteger();

    private static TestCluster cluster;
    private static TableName transactional;
    private static TableName plain;

    @BeforeAll
    static void createTables(TestCluster shared) throws IOException {
        cluster = shared;
        transactional = cluster.createTable("rmw", TableFeature.DEFAULT);
        plain = cluster.createPlainTable("rmwplain", 1);
    }

    @AfterAll
    static void dropTables() throws IOException {
        TestCluster.drop(transactional);
        TestCluster.drop(plain);
    }

    private static byte[] newRow() {
        return Bytes.toBytes("row" + ROWS.incrementAndGet());
    }

    @Test
    void incrementsSeeTheTransactionsOwnWritesAndCommit() throws IOException {
        byte[] row = newRow();
        try (TTable table = new TTable(TestCluster.connection(), transactional)) {
            Transaction tx = cluster.tm.begin();
            assertEquals(5, Bytes.toLong(table.increment(tx, new Increment(row).addColumn(F, Q, 5)).getValue(F, Q)));
            Result second = table.increment(tx, new Increment(row).addColumn(F, Q, 2).addColumn(F, R, -1));
            assertEquals(7, Bytes.toLong(second.getValue(F, Q)));
            assertEquals(-1, Bytes.toLong(second.getValue(F, R)));
            cluster.tm.commit(tx);

            assertEquals(7, Bytes.toLong(read(table, row, Q)));
            assertEquals(-1, Bytes.toLong(read(table, row, R)));
        }
    }

    @Test
    void anIncrementOverACommitAfterItsSnapshotConflictsSoNoIncrementIsLost() throws IOException {
        byte[] row = newRow();
        try (TTable table = new TTable(TestCluster.connection(), transactional)) {
            Transaction late = cluster.tm.begin();
            Transaction early = cluster.tm.begin();
            table.increment(early, new Increment(row).addColumn(F, Q, 1));
            cluster.tm.commit(early);
            assertEquals(1, Bytes.toLong(table.increment(late, new Increment(row).addColumn(F, Q, 1)).getValue(F, Q)),
                    "the late transaction's snapshot does not show the early commit");

            TransactionAbortedException e = assertThrows(TransactionAbortedException.class,
                    () -> cluster.tm.commit(late));
            assertEquals(TransactionAbortedException.Reason.CONFLICT, e.reason());
            assertEquals(1, Bytes.toLong(read(table, row, Q)));
        }
    }

    @Test
    void ofTwoInterleavedIncrementsAtMostOneCommitsAndTheValueCountsOnlyCommittedOnes() throws IOException {
        byte[] row = newRow();
        try (TTable table = new TTable(TestCluster.connection(), transactional)) {
            Transaction first = cluster.tm.begin();
            Transaction second = cluster.tm.begin();
            table.increment(first, new Increment(row).addColumn(F, Q, 1));
            // The second read meets the first's undecided write: a low-latency reader invalidates it. The TSO may
            // still have granted the first its commit before the invalidation was seen, and then refuses the second.
            table.increment(second, new Increment(row).addColumn(F, Q, 1));
            int committed = 0;
            for (Transaction tx : List.of(first, second)) {
                try {
                    cluster.tm.commit(tx);
                    committed++;
                } catch (TransactionAbortedException aborted) {
                    // the loser
                }
            }
            assertTrue(committed <= 1, committed + " of two conflicting increments committed");
            byte[] value = read(table, row, Q);
            assertEquals(committed, value == null ? 0 : Bytes.toLong(value));
        }
    }

    @Test
    void incrementingAColumnThatIsNotALongIsRefusedAndChangesNothing() throws IOException {
        byte[] row = newRow();
        try (TTable table = new TTable(TestCluster.connection(), transactional)) {
            commit(table, new Put(row).addColumn(F, Q, Bytes.toBytes("text")));
            Transaction tx = cluster.tm.begin();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> table.increment(tx, new Increment(row).addColumn(F, Q, 1)));
            assertTrue(e.getMessage().contains("not an 8-byte long"), e.getMessage());
            cluster.tm.rollback(tx);
            assertArrayEquals(Bytes.toBytes("text"), read(table, row, Q));
        }
    }

    @Test
    void appendsConcatenateAndAbsentCountsAsEmpty() throws IOException {
        byte[] row = newRow();
        try (TTable table = new TTable(TestCluster.connection(), transactional)) {
            Transaction tx = cluster.tm.begin();
            table.append(tx, new Append(row).addColumn(F, Q, Bytes.toBytes("ab")));
            Result r = table.append(tx, new Append(row).addColumn(F, Q, Bytes.toBytes("cd")));
            assertArrayEquals(Bytes.toBytes("abcd"), r.getValue(F, Q));
            cluster.tm.commit(tx);
            assertArrayEquals(Bytes.toBytes("abcd"), read(table, row, Q));
        }
    }

    /** Every operator, against a present and an absent column, with empty, smaller, equal and larger values. */
    @Test
    void checkAndMutateConditionsMeanWhatTheyMeanToHBase() throws IOException {
        byte[][] expectations = {null, Bytes.toBytes("a"), Bytes.toBytes("b"), Bytes.toBytes("c")};
        List<String> disagreements = new ArrayList<>();
        int checks = 0;
        try (TTable table = new TTable(TestCluster.connection(), transactional);
             Table hbase = TestCluster.connection().getTable(plain)) {
            for (boolean present : new boolean[] {true, false}) {
                for (CompareOperator op : CompareOperator.values()) {
                    if (op == CompareOperator.NO_OP) {
                        continue;
                    }
                    for (byte[] expected : expectations) {
                        byte[] row = newRow();
                        if (present) {
                            hbase.put(new Put(row).addColumn(F, Q, Bytes.toBytes("b")));
                            commit(table, new Put(row).addColumn(F, Q, Bytes.toBytes("b")));
                        }
                        CheckAndMutate check = CheckAndMutate.newBuilder(row).ifMatches(F, Q, op, expected)
                                .build(new Put(row).addColumn(F, R, Bytes.toBytes("done")));
                        boolean plainResult = hbase.checkAndMutate(check).isSuccess();
                        Transaction tx = cluster.tm.begin();
                        boolean transactionalResult = table.checkAndMutate(tx, check).isSuccess();
                        cluster.tm.commit(tx);
                        checks++;
                        if (plainResult != transactionalResult) {
                            disagreements.add((present ? "b" : "absent") + " " + op + " "
                                    + Bytes.toStringBinary(expected) + ": HBase " + plainResult + ", TTable "
                                    + transactionalResult);
                        }
                        assertEquals(transactionalResult, read(table, row, R) != null);
                    }
                }
            }
        }
        assertEquals(48, checks);
        assertTrue(disagreements.isEmpty(), disagreements.toString());
    }

    @Test
    void checkAndMutateWithAFilterSeesTheSnapshotNotALaterCommit() throws IOException {
        byte[] row = newRow();
        try (TTable table = new TTable(TestCluster.connection(), transactional)) {
            commit(table, new Put(row).addColumn(F, Q, Bytes.toBytes("open")));
            Transaction reader = cluster.tm.begin();
            commit(table, new Put(row).addColumn(F, Q, Bytes.toBytes("closed")));

            SingleColumnValueFilter isOpen = new SingleColumnValueFilter(F, Q, CompareOperator.EQUAL,
                    Bytes.toBytes("open"));
            isOpen.setFilterIfMissing(true);
            CheckAndMutateResult result = table.checkAndMutate(reader, CheckAndMutate.newBuilder(row)
                    .ifMatches(isOpen).build(new Put(row).addColumn(F, R, Bytes.toBytes("seen open"))));
            assertTrue(result.isSuccess());
            cluster.tm.commit(reader);
        }
    }

    @Test
    void aConditionOnAColumnTheActionWritesConflictsWithALaterCommit() throws IOException {
        byte[] row = newRow();
        try (TTable table = new TTable(TestCluster.connection(), transactional)) {
            CheckAndMutate claim = CheckAndMutate.newBuilder(row).ifNotExists(F, Q)
                    .build(new Put(row).addColumn(F, Q, Bytes.toBytes("claimed")));
            Transaction rival = cluster.tm.begin();
            Transaction claimer = cluster.tm.begin();
            assertTrue(table.checkAndMutate(claimer, claim).isSuccess());
            cluster.tm.commit(claimer);
            assertTrue(table.checkAndMutate(rival, claim).isSuccess(), "the rival's snapshot has no claim yet");

            assertThrows(TransactionAbortedException.class, () -> cluster.tm.commit(rival));
        }
    }

    @Test
    void checkAndMutateRunsRowMutationsAndReturnsWhatIncrementsReturn() throws IOException {
        byte[] row = newRow();
        try (TTable table = new TTable(TestCluster.connection(), transactional)) {
            commit(table, new Put(row).addColumn(F, R, Bytes.toBytes("old")));
            RowMutations mutations = new RowMutations(row);
            mutations.add(new Delete(row).addColumns(F, R));
            mutations.add(new Increment(row).addColumn(F, Q, 3));
            Transaction tx = cluster.tm.begin();
            CheckAndMutateResult result = table.checkAndMutate(tx, CheckAndMutate.newBuilder(row)
                    .ifEquals(F, R, Bytes.toBytes("old")).build(mutations));
            cluster.tm.commit(tx);

            assertTrue(result.isSuccess());
            assertEquals(3, Bytes.toLong(result.getResult().getValue(F, Q)));
            assertNull(read(table, row, R));
            assertEquals(3, Bytes.toLong(read(table, row, Q)));
        }
    }

    @Test
    void aBatchRunsIncrementsAndAppendsInOrder() throws IOException {
        byte[] row = newRow();
        try (TTable table = new TTable(TestCluster.connection(), transactional)) {
            List<Row> actions = List.of(new Increment(row).addColumn(F, Q, 2), new Increment(row).addColumn(F, Q, 2),
                    new Append(row).addColumn(F, R, Bytes.toBytes("x")), new Get(row).addColumn(F, Q));
            Object[] results = new Object[actions.size()];
            Transaction tx = cluster.tm.begin();
            table.batch(tx, actions, results);
            cluster.tm.commit(tx);

            assertEquals(4, Bytes.toLong(((Result) results[1]).getValue(F, Q)));
            assertArrayEquals(Bytes.toBytes("x"), ((Result) results[2]).getValue(F, R));
            assertEquals(4, Bytes.toLong(((Result) results[3]).getValue(F, Q)));
        }
    }

    @Test
    void userTimeRangesAreRefused() throws IOException {
        byte[] row = newRow();
        try (TTable table = new TTable(TestCluster.connection(), transactional)) {
            Transaction tx = cluster.tm.begin();
            assertThrows(TimestampNotAllowedException.class,
                    () -> table.increment(tx, new Increment(row).addColumn(F, Q, 1).setTimeRange(0, 10)));
            assertThrows(TimestampNotAllowedException.class, () -> table.checkAndMutate(tx,
                    CheckAndMutate.newBuilder(row).ifNotExists(F, Q).timeRange(
                            org.apache.hadoop.hbase.io.TimeRange.between(0, 10))
                            .build(new Put(row).addColumn(F, Q, Q))));
            cluster.tm.rollback(tx);
            assertNull(read(table, row, Q));
        }
    }

    private static void commit(TTable table, Put put) throws IOException {
        Transaction tx = cluster.tm.begin();
        table.put(tx, put);
        cluster.tm.commit(tx);
    }

    private static byte[] read(TTable table, byte[] row, byte[] qualifier) throws IOException {
        Transaction tx = cluster.tm.begin();
        byte[] value = table.get(tx, new Get(row).addColumn(F, qualifier)).getValue(F, qualifier);
        cluster.tm.commit(tx);
        return value;
    }
}
