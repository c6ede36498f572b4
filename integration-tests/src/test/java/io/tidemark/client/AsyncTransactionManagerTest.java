package io.tidemark.client;

import io.tidemark.client.tso.CommitResult;
import io.tidemark.client.tso.NettyTsoClient;
import io.tidemark.client.tso.TsoUnavailableException;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.table.TableFeature;
import io.tidemark.testing.ForwardingTsoClient;
import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static io.tidemark.client.NumberedRows.Q;
import static io.tidemark.testing.TestCluster.F;
import static io.tidemark.client.NumberedRows.get;
import static io.tidemark.client.NumberedRows.put;
import static io.tidemark.client.NumberedRows.row;
import static io.tidemark.client.NumberedRows.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link AsyncTransactionManager} and {@link AsyncTransactionalTable} on a real mini-cluster and TSO: the rules of the
 * blocking API (snapshot, own writes, first committer wins, rollback, failed commits and their exception types).
 * {@link AsyncTransactionsInFlightTest} proves that transactions in flight need no thread each.
 */
@ExtendWith(SharedTestClusters.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class AsyncTransactionManagerTest {

    private static final byte[] MISSING_FAMILY = Bytes.toBytes("missing");
    private static AsyncConnection connection;

    private TestCluster cluster;
    private TableName name;
    private AsyncTransactionManager atm;
    private AsyncTransactionalTable table;

    @BeforeAll
    static void connect() throws Exception {
        connection = ConnectionFactory.createAsyncConnection(SharedMiniCluster.conf()).get();
    }

    @AfterAll
    static void disconnect() throws Exception {
        connection.close();
    }

    @BeforeEach
    void createTable(TestCluster shared) throws Exception {
        cluster = shared;
        name = cluster.createTable("nonblocking", TableFeature.DEFAULT, row(250), row(500), row(750));
        atm = AsyncTransactionManager.over(cluster.tm, connection);
        table = atm.table(name).get();
    }

    @AfterEach
    void dropTable() throws Exception {
        TestCluster.drop(name);
    }

    private static Throwable failureOf(CompletableFuture<?> future) {
        return assertThrows(ExecutionException.class, future::get).getCause();
    }

    private void commitValue(int row, String value) throws Exception {
        Transaction tx = atm.begin().get();
        table.put(tx, put(row, value)).get();
        atm.commit(tx).get();
    }

    @Test
    void readsSeeTheSnapshotAndTheTransactionsOwnWrites() throws Exception {
        commitValue(1, "old");
        Transaction reader = atm.begin().get();
        commitValue(1, "newer");

        assertEquals("old", value(table.get(reader, get(1)).get()), "a commit after the snapshot stays unseen");
        table.put(reader, put(1, "mine"));
        assertEquals("mine", value(table.get(reader, get(1)).get()), "the transaction reads its own write");
        table.delete(reader, new Delete(row(1)));
        assertTrue(table.get(reader, get(1)).get().isEmpty(), "and its own delete of the row");
        assertFalse(table.exists(reader, get(1)).get());
        atm.rollback(reader).get();

        Transaction later = atm.begin().get();
        assertEquals("newer", value(table.get(later, get(1)).get()));
        atm.commit(later).get();
    }

    /**
     * A scan across two regions sees the snapshot plus the transaction's own writes, kept ones included, as the
     * blocking scanner of the same transaction does.
     */
    @Test
    void aScanSeesTheSnapshotAndTheTransactionsOwnKeptWritesAcrossRegions() throws Exception {
        commitValue(248, "old");
        commitValue(251, "old");
        try (TransactionManager keeping = keepingWrites(); TTable blocking = new TTable(TestCluster.connection(), name)) {
            AsyncTransactionManager async = AsyncTransactionManager.over(keeping, connection);
            AsyncTransactionalTable kept = async.table(name).get();
            Transaction tx = async.begin().get();
            commitValue(249, "committed after the snapshot");
            kept.put(tx, put(252, "kept")).get();
            kept.delete(tx, new Delete(row(248)).addColumn(F, Q)).get();
            Scan range = new Scan().withStartRow(row(240)).withStopRow(row(260));

            List<Result> rows = kept.scanAll(tx, range).get();

            assertEquals(List.of("row-0251", "row-0252"), rows.stream().map(r -> Bytes.toString(r.getRow()))
                    .collect(Collectors.toList()), "the snapshot's rows and the own write; not the own delete, nor a"
                    + " commit after the snapshot");
            assertEquals("kept", value(rows.get(1)));
            List<String> blockingRows = new ArrayList<>();
            try (ResultScanner scanner = blocking.getScanner(tx, range)) {
                scanner.forEach(r -> blockingRows.add(Bytes.toString(r.getRow())));
            }
            assertEquals(List.of("row-0251", "row-0252"), blockingRows, "the blocking scanner of the transaction");
            async.commit(tx).get();
            Transaction later = async.begin().get();
            assertEquals(List.of("row-0249", "row-0251", "row-0252"), kept.scanAll(later, range).get().stream()
                    .map(r -> Bytes.toString(r.getRow())).collect(Collectors.toList()), "after the commit");
            async.commit(later).get();
        }
    }

    @Test
    void writeWriteConflictAbortsTheSecondCommitterAsTheBlockingApiDoes() throws Exception {
        Transaction first = atm.begin().get();
        Transaction second = atm.begin().get();
        table.put(first, put(2, "first"));
        table.put(second, put(2, "second"));

        atm.commit(first).get();
        Throwable asyncFailure = failureOf(atm.commit(second));

        TransactionAbortedException aborted = assertInstanceOf(TransactionAbortedException.class, asyncFailure);
        assertEquals(TransactionAbortedException.Reason.CONFLICT, aborted.reason());
        assertEquals(TransactionState.ROLLED_BACK, second.state());
        TransactionAbortedException blocking = blockingConflict();
        assertEquals(blocking.getClass(), aborted.getClass());
        assertEquals(blocking.reason(), aborted.reason());
        Transaction check = atm.begin().get();
        assertEquals("first", value(table.get(check, get(2)).get()), "the first committer's write stands");
        atm.commit(check).get();
    }

    private TransactionAbortedException blockingConflict() throws Exception {
        try (TTable blocking = new TTable(TestCluster.connection(), name)) {
            Transaction first = cluster.tm.begin();
            Transaction second = cluster.tm.begin();
            blocking.put(first, put(3, "first"));
            blocking.put(second, put(3, "second"));
            cluster.tm.commit(first);
            return assertThrows(TransactionAbortedException.class, () -> cluster.tm.commit(second));
        }
    }

    @Test
    void rollbackLeavesNothingVisibleNorStored() throws Exception {
        Transaction tx = atm.begin().get();
        table.put(tx, put(4, "rolled back"));
        // The read sends the kept write to HBase, so the rollback has a tentative cell to remove.
        assertEquals("rolled back", value(table.get(tx, get(4)).get()));

        atm.rollback(tx).get();

        assertEquals(TransactionState.ROLLED_BACK, tx.state());
        Transaction later = atm.begin().get();
        assertNull(value(table.get(later, get(4)).get()));
        atm.commit(later).get();
        try (Table raw = TestCluster.connection().getTable(name)) {
            assertTrue(raw.get(new Get(row(4)).readAllVersions()).isEmpty(), "no tentative cell is left");
        }
        assertInstanceOf(TransactionStateException.class, failureOf(table.put(tx, put(4, "after"))));
    }

    /** A manager that keeps writes until commit or a read that could see them, as the client's default does. */
    private TransactionManager keepingWrites() {
        return cluster.managerBuilder().config(cluster.configWith(TestCluster.KEPT_WRITES)).build();
    }

    @Test
    void keptWritesAreSentBeforeAReadThatCouldSeeThemAndAtCommit() throws Exception {
        try (TransactionManager keeping = keepingWrites()) {
            AsyncTransactionManager async = AsyncTransactionManager.over(keeping, connection);
            AsyncTransactionalTable kept = async.table(name).get();
            Transaction tx = async.begin().get();
            kept.put(tx, put(7, "kept"));
            kept.put(tx, put(8, "kept too"));
            kept.delete(tx, new Delete(row(9)));

            assertEquals("kept", value(kept.get(tx, get(7)).get()), "the read sends the kept write of its row");
            kept.delete(tx, new Delete(row(7)));
            assertTrue(kept.get(tx, get(7)).get().isEmpty(), "a row delete covers the own write it reads");
            async.commit(tx).get();

            Transaction later = async.begin().get();
            assertNull(value(kept.get(later, get(7)).get()));
            assertEquals("kept too", value(kept.get(later, get(8)).get()), "the write kept until commit committed");
            async.commit(later).get();
        }
    }

    @Test
    void refusedWriteFailsTheCommitWithTheBlockingApisException() throws Exception {
        try (TransactionManager keeping = keepingWrites(); TTable blocking = new TTable(TestCluster.connection(), name)) {
            AsyncTransactionManager async = AsyncTransactionManager.over(keeping, connection);
            AsyncTransactionalTable kept = async.table(name).get();
            Transaction tx = async.begin().get();
            // Kept until commit: HBase refuses the unknown family only when the commit sends it.
            kept.put(tx, new Put(row(5)).addColumn(MISSING_FAMILY, Q, Bytes.toBytes("x"))).get();

            Throwable asyncFailure = failureOf(async.commit(tx));

            TransactionAbortedException aborted = assertInstanceOf(TransactionAbortedException.class, asyncFailure);
            assertEquals(TransactionAbortedException.Reason.WRITE_FAILED, aborted.reason());
            assertEquals(TransactionState.ROLLED_BACK, tx.state());
            Transaction sync = keeping.begin();
            blocking.put(sync, new Put(row(5)).addColumn(MISSING_FAMILY, Q, Bytes.toBytes("x")));
            TransactionAbortedException blockingFailure = assertThrows(TransactionAbortedException.class,
                    () -> keeping.commit(sync));
            assertEquals(blockingFailure.reason(), aborted.reason());
        }
    }

    @Test
    void aWriteRefusedAtOnceFailsItsFutureAndAbortsTheCommit() throws Exception {
        Transaction tx = atm.begin().get();

        assertInstanceOf(IOException.class, failureOf(table.put(tx, new Put(row(5)).addColumn(MISSING_FAMILY, Q,
                Bytes.toBytes("x")))), "this manager sends every write at once");

        TransactionAbortedException aborted = assertInstanceOf(TransactionAbortedException.class,
                failureOf(atm.commit(tx)));
        assertEquals(TransactionAbortedException.Reason.WRITE_FAILED, aborted.reason());
    }

    /**
     * The blocking API sending every write at once (write buffer 0, as this cluster's managers do): a multi-row put
     * HBase applies to one row and refuses for another must abort the commit as the non-blocking API does, not commit
     * the half that got in.
     */
    @Test
    void aBlockingWriteRefusedHalfWayAbortsTheCommitAndLeavesNothingVisible() throws Exception {
        try (TTable blocking = new TTable(TestCluster.connection(), name)) {
            Transaction tx = cluster.tm.begin();
            assertThrows(IOException.class, () -> blocking.put(tx, List.of(put(6, "half"),
                    new Put(row(5)).addColumn(MISSING_FAMILY, Q, Bytes.toBytes("x")))));

            TransactionAbortedException aborted = assertThrows(TransactionAbortedException.class,
                    () -> cluster.tm.commit(tx));

            assertEquals(TransactionAbortedException.Reason.WRITE_FAILED, aborted.reason());
            Transaction later = cluster.tm.begin();
            assertNull(value(blocking.get(later, get(6))), "no half of the refused put became visible");
            cluster.tm.commit(later);
        }
    }

    @Test
    void unansweredCommitIsSettledAsAbortedThroughTheCommitTable() throws Exception {
        try (NettyTsoClient real = NettyTsoClient.create(cluster.config, TestCluster.connection().getConfiguration());
             TransactionManager silent = cluster.managerBuilder().tsoClient(new ForwardingTsoClient(real) {
                 @Override
                 public CompletableFuture<CommitResult> commit(long startTimestamp, long commitToken,
                         long[] writeSet, long[] tableIds) {
                     return CompletableFuture.failedFuture(new TsoUnavailableException("injected: no reply to"
                             + " COMMIT"));
                 }
             }).build()) {
            AsyncTransactionManager async = AsyncTransactionManager.over(silent, connection);
            Transaction tx = async.begin().get();
            table.put(tx, put(10, "unknown")).get();

            TransactionAbortedException aborted = assertInstanceOf(TransactionAbortedException.class,
                    failureOf(async.commit(tx)));

            assertEquals(TransactionAbortedException.Reason.TSO_UNAVAILABLE, aborted.reason());
            assertInstanceOf(TsoUnavailableException.class, aborted.getCause());
            assertTrue(cluster.commitTable.lookup(tx.startTimestamp()).isInvalidated(), "settled by invalidation");
        }
        Transaction check = atm.begin().get();
        assertNull(value(table.get(check, get(10)).get()));
        atm.commit(check).get();
    }

    /**
     * With the asynchronous post-commit a commit returns at its commit point, and the shadow cells and the removal of
     * the commit record go on on HBase's threads: closing the manager right after must wait for them, as it waits for
     * the blocking API's, instead of closing the commit table's connection under them and leaving the records behind.
     */
    @Test
    void closingTheManagerWaitsForTheNonBlockingPostCommits() throws Exception {
        TidemarkConfig asyncPostCommit = cluster.configWith(c -> c.set(TidemarkConfig.CLIENT_POST_COMMIT,
                PostCommitMode.ASYNC.configName()));
        List<Long> starts = new ArrayList<>();
        try (TransactionManager manager = cluster.managerBuilder().config(asyncPostCommit).build()) {
            AsyncTransactionManager async = AsyncTransactionManager.over(manager, connection);
            AsyncTransactionalTable asyncTable = async.table(name).get();
            List<CompletableFuture<Void>> commits = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                Transaction tx = async.begin().get();
                asyncTable.put(tx, put(100 + i, "post-committed " + i)).get();
                commits.add(async.commit(tx));
                starts.add(tx.startTimestamp());
            }
            CompletableFuture.allOf(commits.toArray(new CompletableFuture<?>[0])).get();
        }
        for (long start : starts) {
            assertTrue(cluster.commitTable.lookup(start).isAbsent(), "the commit record of " + start
                    + " was removed before the manager closed");
        }
        Transaction check = atm.begin().get();
        for (int i = 0; i < 20; i++) {
            assertEquals("post-committed " + i, value(table.get(check, get(100 + i)).get()));
        }
        atm.commit(check).get();
    }

    @Test
    void commitRecordWrittenDespiteAnErrorIsSettledAsCommitted() throws Exception {
        CommitRecordWriter writesThenFails = (record, deadline) -> {
            cluster.commitTable.tryCommit(record, deadline);
            throw new IOException("injected: the reply was lost after the write");
        };
        try (TransactionManager lostReply = cluster.managerBuilder().commitRecordWriter(writesThenFails).build()) {
            AsyncTransactionManager async = AsyncTransactionManager.over(lostReply, connection);
            Transaction tx = async.begin().get();
            table.put(tx, put(11, "committed anyway")).get();

            async.commit(tx).get();

            assertEquals(TransactionState.COMMITTED, tx.state());
        }
        Transaction check = atm.begin().get();
        assertEquals("committed anyway", value(table.get(check, get(11)).get()));
        atm.commit(check).get();
    }

    @Test
    void writesOfAReadOnlyOrFinishedTransactionAreRefusedThroughTheFuture() throws Exception {
        Transaction tx = atm.begin().get();
        atm.commit(tx).get();

        assertInstanceOf(TransactionStateException.class, failureOf(table.put(tx, put(6, "late"))));
        assertInstanceOf(TransactionStateException.class, failureOf(table.get(tx, get(6))));
        assertInstanceOf(TransactionStateException.class, failureOf(atm.commit(tx)));
    }

    @Test
    void aTableWithoutTheSnapshotCoprocessorIsRefused() throws Exception {
        TableName clientSide = cluster.createTable("clientside", Set.of());
        try {
            assertInstanceOf(TableNotTransactionalException.class, failureOf(atm.table(clientSide)));
        } finally {
            TestCluster.drop(clientSide);
        }
    }
}
