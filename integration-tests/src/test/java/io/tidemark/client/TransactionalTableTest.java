package io.tidemark.client;

import io.tidemark.table.TableFeature;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Append;
import org.apache.hadoop.hbase.client.CheckAndMutate;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.ValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;

import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The drop-in {@link Table}: ordinary HBase client code gives the same results against plain HBase and inside a
 * transaction, and only snapshot-isolated results when run concurrently.
 */
@ExtendWith(SharedTestClusters.class)
class TransactionalTableTest {

    private static final byte[] Q = Bytes.toBytes("q");
    private static final byte[] BALANCE = Bytes.toBytes("balance");

    private static TestCluster cluster;
    private static TableName transactional;
    private static TableName plain;

    @BeforeAll
    static void createTables(TestCluster shared) throws IOException {
        cluster = shared;
        transactional = cluster.createTable("drop", TableFeature.DEFAULT);
        plain = cluster.createPlainTable("dropplain", 1);
    }

    @AfterAll
    static void dropTables() throws IOException {
        TestCluster.drop(transactional);
        TestCluster.drop(plain);
    }

    /** Ordinary HBase client code, written against Table only; returns what it observed. */
    private static List<String> inventoryCode(Table table, String prefix) throws Exception {
        List<String> seen = new ArrayList<>();
        byte[] apples = Bytes.toBytes(prefix + "apples");
        byte[] pears = Bytes.toBytes(prefix + "pears");
        byte[] plums = Bytes.toBytes(prefix + "plums");
        table.put(new Put(apples).addColumn(F, Q, Bytes.toBytes("red")));
        table.put(List.of(new Put(pears).addColumn(F, Q, Bytes.toBytes("green")),
                new Put(plums).addColumn(F, Q, Bytes.toBytes("blue"))));
        seen.add("get " + show(table.get(new Get(apples))));
        seen.add("exists " + table.exists(new Get(pears)) + " " + table.exists(new Get(Bytes.toBytes(prefix + "x"))));
        seen.add("existsAll " + Arrays.toString(table.existsAll(List.of(new Get(apples), new Get(plums)))));
        seen.add("incrementColumnValue " + table.incrementColumnValue(apples, F, BALANCE, 5));
        seen.add("increment " + show(table.increment(new Increment(apples).addColumn(F, BALANCE, 2))));
        seen.add("append " + show(table.append(new Append(pears).addColumn(F, Q, Bytes.toBytes("ish")))));
        seen.add("checkAndMutate builder " + table.checkAndMutate(plums, F).qualifier(Q)
                .ifEquals(Bytes.toBytes("blue")).thenPut(new Put(plums).addColumn(F, Q, Bytes.toBytes("purple"))));
        seen.add("checkAndMutate missed " + table.checkAndMutate(plums, F).qualifier(Q)
                .ifEquals(Bytes.toBytes("blue")).thenDelete(new Delete(plums)));
        seen.add("checkAndMutate filter " + table.checkAndMutate(apples,
                new ValueFilter(CompareOperator.EQUAL, new BinaryComparator(Bytes.toBytes("red"))))
                .thenPut(new Put(apples).addColumn(F, Bytes.toBytes("ripe"), Bytes.toBytes("yes"))));
        seen.add("checkAndMutate object " + table.checkAndMutate(CheckAndMutate.newBuilder(pears)
                .ifMatches(F, Q, CompareOperator.LESS, Bytes.toBytes("greenish~"))
                .build(new Delete(pears).addColumns(F, Q))).isSuccess());
        RowMutations both = new RowMutations(plums);
        both.add(new Put(plums).addColumn(F, Bytes.toBytes("size"), Bytes.toBytes("small")));
        both.add(new Delete(plums).addColumns(F, Q));
        table.mutateRow(both);
        Object[] results = new Object[3];
        List<Row> actions = List.of(new Get(apples), new Put(pears).addColumn(F, Q, Bytes.toBytes("yellow")),
                new Get(plums));
        table.batch(actions, results);
        seen.add("batch " + show((Result) results[0]) + " | " + show((Result) results[2]));
        @SuppressWarnings("deprecation")
        boolean checkAndPut = table.checkAndPut(pears, F, Q, Bytes.toBytes("yellow"),
                new Put(pears).addColumn(F, Bytes.toBytes("checked"), Bytes.toBytes("yes")));
        seen.add("checkAndPut " + checkAndPut);
        try (ResultScanner scanner = table.getScanner(new Scan().withStartRow(Bytes.toBytes(prefix))
                .withStopRow(Bytes.toBytes(prefix + "~")))) {
            for (Result r : scanner) {
                seen.add("scan " + show(r));
            }
        }
        table.delete(new Delete(apples));
        try (ResultScanner scanner = table.getScanner(F)) {
            for (Result r : scanner) {
                if (Bytes.toString(r.getRow()).startsWith(prefix)) {
                    seen.add("scan family " + show(r));
                }
            }
        }
        return seen;
    }

    private static String show(Result r) {
        if (r == null || r.isEmpty()) {
            return "(empty)";
        }
        StringBuilder s = new StringBuilder(Bytes.toString(r.getRow())).append(" {");
        for (Cell c : r.rawCells()) {
            byte[] value = CellUtil.cloneValue(c);
            s.append(' ').append(Bytes.toString(CellUtil.cloneQualifier(c))).append('=')
                    .append(value.length == Bytes.SIZEOF_LONG ? Long.toString(Bytes.toLong(value))
                            : Bytes.toString(value));
        }
        return s.append(" }").toString();
    }

    @Test
    void ordinaryTableCodeGivesTheSameResultsOnPlainHBaseAndInATransaction() throws Exception {
        List<String> expected;
        try (Table hbase = TestCluster.connection().getTable(plain)) {
            expected = inventoryCode(hbase, "same-");
        }
        PerThreadTransactions transactions = new PerThreadTransactions(cluster.tm);
        List<String> actual;
        try (Table table = TransactionalTable.of(TestCluster.connection(), transactional, transactions)) {
            transactions.begin();
            actual = inventoryCode(table, "same-");
            transactions.commit();
        }
        assertTrue(expected.size() > 10, expected.toString());
        assertEquals(expected, actual);
    }

    @Test
    void writesStayInvisibleToOthersUntilCommitAndRollbackDiscardsThem() throws Exception {
        PerThreadTransactions transactions = new PerThreadTransactions(cluster.tm);
        byte[] row = Bytes.toBytes("invisible");
        try (Table table = TransactionalTable.of(TestCluster.connection(), transactional, transactions)) {
            transactions.begin();
            table.put(new Put(row).addColumn(F, Q, Bytes.toBytes("draft")));
            Transaction other = cluster.tm.begin();
            try (Table otherView = TransactionalTable.of(TestCluster.connection(), transactional,
                    TransactionContext.of(other))) {
                assertTrue(otherView.get(new Get(row)).isEmpty());
            }
            cluster.tm.rollback(other);
            transactions.rollback();

            transactions.begin();
            assertTrue(table.get(new Get(row)).isEmpty());
            transactions.commit();
        }
    }

    @Test
    void withoutATransactionOrWithWhatCannotBeTransactionalTheErrorSaysWhy() throws Exception {
        PerThreadTransactions transactions = new PerThreadTransactions(cluster.tm);
        try (Table table = TransactionalTable.of(TestCluster.connection(), transactional, transactions)) {
            IllegalStateException none = assertThrows(IllegalStateException.class,
                    () -> table.get(new Get(Bytes.toBytes("r"))));
            assertTrue(none.getMessage().contains("call begin()"), none.getMessage());

            transactions.begin();
            assertThrows(IllegalStateException.class, transactions::begin);
            UnsupportedOperationException service = assertThrows(UnsupportedOperationException.class,
                    () -> table.coprocessorService(Bytes.toBytes("r")));
            assertTrue(service.getMessage().contains("coprocessor service"), service.getMessage());
            assertThrows(TimestampNotAllowedException.class,
                    () -> table.put(new Put(Bytes.toBytes("r")).addColumn(F, Q, 42L, Q)));
            assertThrows(TimestampNotAllowedException.class,
                    () -> table.get(new Get(Bytes.toBytes("r")).setTimeRange(0, 10)));
            transactions.rollback();
        }
    }

    /** Transfers written as plain Table code on four threads: every snapshot keeps the total. */
    @Test
    void concurrentTableCodeIsSnapshotIsolated() throws Exception {
        int accounts = 5;
        long initial = 100;
        PerThreadTransactions transactions = new PerThreadTransactions(cluster.tm);
        try (Table setup = TransactionalTable.of(TestCluster.connection(), transactional, transactions)) {
            transactions.begin();
            for (int i = 0; i < accounts; i++) {
                setup.put(new Put(account(i)).addColumn(F, BALANCE, Bytes.toBytes(initial)));
            }
            transactions.commit();
        }
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> workers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                workers.add(threads.submit(() -> transfers(transactions, accounts, 15)));
            }
            int committed = 0;
            for (Future<Integer> worker : workers) {
                committed += worker.get();
            }
            assertTrue(committed > 0);
        } finally {
            threads.shutdownNow();
        }
        try (Table table = TransactionalTable.of(TestCluster.connection(), transactional, transactions)) {
            transactions.begin();
            long total = 0;
            for (int i = 0; i < accounts; i++) {
                total += Bytes.toLong(table.get(new Get(account(i))).getValue(F, BALANCE));
            }
            transactions.commit();
            assertEquals(accounts * initial, total);
        }
    }

    private static int transfers(PerThreadTransactions transactions, int accounts, int count) throws Exception {
        int committed = 0;
        try (Table table = TransactionalTable.of(TestCluster.connection(), transactional, transactions)) {
            for (int i = 0; i < count; i++) {
                int from = ThreadLocalRandom.current().nextInt(accounts);
                int to = (from + 1 + ThreadLocalRandom.current().nextInt(accounts - 1)) % accounts;
                transactions.begin();
                long a = Bytes.toLong(table.get(new Get(account(from))).getValue(F, BALANCE));
                long b = Bytes.toLong(table.get(new Get(account(to))).getValue(F, BALANCE));
                long total = 0;
                try (ResultScanner all = table.getScanner(new Scan().withStartRow(account(0))
                        .withStopRow(account(accounts)))) {
                    for (Result r : all) {
                        total += Bytes.toLong(r.getValue(F, BALANCE));
                    }
                }
                assertEquals(accounts * 100L, total, "a snapshot showed money appear or vanish");
                table.put(List.of(new Put(account(from)).addColumn(F, BALANCE, Bytes.toBytes(a - 1)),
                        new Put(account(to)).addColumn(F, BALANCE, Bytes.toBytes(b + 1))));
                try {
                    transactions.commit();
                    committed++;
                } catch (TransactionAbortedException conflict) {
                    // another transfer touched one of the accounts first
                }
            }
        }
        return committed;
    }

    private static byte[] account(int i) {
        return Bytes.toBytes("account" + i);
    }
}
