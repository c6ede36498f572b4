package io.tidemark.client;

import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link AsyncTTable}: one transaction's operations in flight together, with the rules of {@link TTable}. */
@ExtendWith(SharedTestClusters.class)
class AsyncTTableTest {

    private static final byte[] Q = Bytes.toBytes("q");
    private static final byte[] MISSING_FAMILY = Bytes.toBytes("missing");
    private static AsyncConnection connection;
    private static ExecutorService executor;

    private TestCluster cluster;
    private TableName name;
    private AsyncTTable table;

    @BeforeAll
    static void connect() throws Exception {
        connection = ConnectionFactory.createAsyncConnection(SharedMiniCluster.conf()).get();
        executor = Executors.newFixedThreadPool(8);
    }

    @AfterAll
    static void disconnect() throws Exception {
        executor.shutdownNow();
        connection.close();
    }

    @BeforeEach
    void createTable(TestCluster shared) throws Exception {
        cluster = shared;
        name = cluster.createTable("async", Set.of(), Bytes.toBytes("row-4"), Bytes.toBytes("row-8"));
        table = cluster.tm.asyncTable(connection, name, executor);
    }

    @AfterEach
    void dropTable() throws Exception {
        table.close();
        TestCluster.drop(name);
    }

    private static byte[] row(int i) {
        return Bytes.toBytes("row-" + i);
    }

    private static Put put(int row, String value) {
        return new Put(row(row)).addColumn(F, Q, Bytes.toBytes(value));
    }

    private static Get get(int row) {
        return new Get(row(row)).addColumn(F, Q);
    }

    private static String value(Result r) {
        byte[] v = r.getValue(F, Q);
        return v == null ? null : Bytes.toString(v);
    }

    private void commitRows(int count, String value) throws Exception {
        Transaction tx = cluster.tm.begin();
        for (int i = 0; i < count; i++) {
            table.put(tx, put(i, value)).get();
        }
        cluster.tm.commit(tx);
    }

    private static Throwable failureOf(CompletableFuture<?> future) {
        return assertThrows(ExecutionException.class, future::get).getCause();
    }

    @Test
    void readSeesTheTransactionsOwnWriteStillInFlight() throws Exception {
        Transaction tx = cluster.tm.begin();

        table.put(tx, put(1, "mine"));
        CompletableFuture<Result> read = table.get(tx, get(1));
        table.delete(tx, new Delete(row(2)));
        table.put(tx, put(2, "again"));
        CompletableFuture<Result> readAgain = table.get(tx, get(2));

        assertEquals("mine", value(read.get()), "the read waits for the write to its row issued before it");
        assertEquals("again", value(readAgain.get()), "writes of one row land in issue order");
        cluster.tm.commit(tx);
    }

    @Test
    void readsFanOutOverTheSnapshot() throws Exception {
        commitRows(12, "committed");
        Transaction tx = cluster.tm.begin();
        List<Get> gets = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            gets.add(get(i));
        }

        List<CompletableFuture<Result>> reads = table.get(tx, gets);

        for (CompletableFuture<Result> r : reads) {
            assertEquals("committed", value(r.get()));
        }
        assertEquals(12, table.getAll(tx, gets).get().size());
        assertTrue(table.exists(tx, get(11)).get());
        assertFalse(table.exists(tx, get(99)).get());
        cluster.tm.commit(tx);
    }

    @Test
    void deleteAllRemovesWholeRowsFamiliesAndColumnsInOneCall() throws Exception {
        byte[] other = Bytes.toBytes("other");
        Transaction setup = cluster.tm.begin();
        for (int i = 0; i < 3; i++) {
            table.put(setup, put(i, "v").addColumn(F, other, Bytes.toBytes("o"))).get();
        }
        cluster.tm.commit(setup);
        Transaction tx = cluster.tm.begin();

        table.deleteAll(tx, List.of(new Delete(row(0)), new Delete(row(1)).addFamily(F),
                new Delete(row(2)).addColumns(F, other))).get();
        cluster.tm.commit(tx);

        Transaction later = cluster.tm.begin();
        assertTrue(table.get(later, new Get(row(0))).get().isEmpty(), "whole row");
        assertTrue(table.get(later, new Get(row(1))).get().isEmpty(), "family");
        Result kept = table.get(later, new Get(row(2))).get();
        assertEquals("v", value(kept), "only the named column is deleted");
        assertNull(kept.getValue(F, other));
        cluster.tm.commit(later);
    }

    @Test
    void snapshotHidesAConcurrentCommit() throws Exception {
        commitRows(1, "before");
        Transaction reader = cluster.tm.begin();
        Transaction writer = cluster.tm.begin();
        table.put(writer, put(0, "after")).get();
        cluster.tm.commit(writer);

        assertEquals("before", value(table.get(reader, get(0)).get()));
        cluster.tm.commit(reader);
    }

    @Test
    void commitWaitsForEveryWriteInFlight() throws Exception {
        Transaction tx = cluster.tm.begin();
        List<CompletableFuture<Void>> writes = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            writes.add(table.put(tx, put(i, "v" + i)));
        }

        cluster.tm.commit(tx);

        assertTrue(writes.stream().allMatch(CompletableFuture::isDone), "commit returned before a write finished");
        Transaction later = cluster.tm.begin();
        for (int i = 0; i < 12; i++) {
            assertEquals("v" + i, value(table.get(later, get(i)).get()), "row " + i);
        }
        cluster.tm.commit(later);
    }

    @Test
    void failedWriteAbortsTheCommitWithWriteFailed() throws Exception {
        long abortsBefore = writeFailedAborts();
        Transaction tx = cluster.tm.begin();
        CompletableFuture<Void> good = table.put(tx, put(1, "lost"));
        CompletableFuture<Void> bad = table.put(tx, new Put(row(5)).addColumn(MISSING_FAMILY, Q, Bytes.toBytes("x")));

        TransactionAbortedException aborted = assertThrows(TransactionAbortedException.class,
                () -> cluster.tm.commit(tx));

        assertEquals(TransactionAbortedException.Reason.WRITE_FAILED, aborted.reason());
        assertTrue(bad.isCompletedExceptionally(), "the write's own future reports the failure too");
        assertTrue(good.isDone());
        assertEquals(TransactionState.ROLLED_BACK, tx.state());
        Transaction later = cluster.tm.begin();
        assertNull(value(table.get(later, get(1)).get()), "nothing of the aborted transaction is visible");
        cluster.tm.commit(later);
        assertEquals(abortsBefore + 1, writeFailedAborts(), "counted by reason");
    }

    private long writeFailedAborts() {
        return cluster.tm.metricRegistry().counter(
                ClientMetrics.abortName(TransactionAbortedException.Reason.WRITE_FAILED)).getCount();
    }

    @Test
    void operationsAfterCommitAreRefused() throws Exception {
        Transaction tx = cluster.tm.begin();
        table.put(tx, put(1, "v")).get();
        cluster.tm.commit(tx);

        assertInstanceOf(TransactionStateException.class, failureOf(table.put(tx, put(2, "late"))));
        assertInstanceOf(TransactionStateException.class, failureOf(table.get(tx, get(1))));
    }

    @Test
    void operationsAfterRollbackAreRefused() throws Exception {
        Transaction tx = cluster.tm.begin();
        table.put(tx, put(1, "v"));
        cluster.tm.rollback(tx);

        Throwable refused = failureOf(table.put(tx, put(2, "late")));
        assertInstanceOf(TransactionStateException.class, refused);
    }

    @Test
    void readOnlyTransactionRefusesAsyncWrites() throws Exception {
        Transaction tx = cluster.tm.beginReadOnly(Staleness.none());

        Throwable refused = failureOf(table.put(tx, put(1, "v")));

        assertInstanceOf(TransactionStateException.class, refused);
        assertTrue(refused.getMessage().contains("read-only"), refused.getMessage());
        assertInstanceOf(TransactionStateException.class, failureOf(table.delete(tx, new Delete(row(1)))));
        cluster.tm.commit(tx);
    }

    @Test
    void concurrentWritesOfOneCellConflict() throws Exception {
        Transaction first = cluster.tm.begin();
        Transaction second = cluster.tm.begin();
        table.put(first, put(3, "first"));
        table.put(second, put(3, "second"));

        cluster.tm.commit(first);
        TransactionAbortedException aborted = assertThrows(TransactionAbortedException.class,
                () -> cluster.tm.commit(second));

        assertEquals(TransactionAbortedException.Reason.CONFLICT, aborted.reason());
    }

    @Test
    void writeIssuedBeforeACheckpointBelongsToTheEarlierCheckpointThoughItRunsAfter() throws Exception {
        ExecutorService held = Executors.newSingleThreadExecutor();
        CountDownLatch release = new CountDownLatch(1);
        try (AsyncTTable heldTable = cluster.tm.asyncTable(connection, name, held)) {
            held.execute(() -> {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            Transaction tx = cluster.tm.begin();
            CompletableFuture<Void> write = heldTable.put(tx, put(1, "before the checkpoint"));
            assertFalse(write.isDone(), "the executor is held, so the write has not run");

            tx.checkpoint();
            release.countDown();
            write.get();

            tx.setVisibilityLevel(VisibilityLevel.SNAPSHOT_EXCLUDE_CURRENT);
            assertEquals("before the checkpoint", value(heldTable.get(tx, get(1)).get()),
                    "the write was issued in checkpoint 0, so a read excluding checkpoint 1 sees it");
            cluster.tm.commit(tx);
        } finally {
            held.shutdownNow();
        }
    }
}
