package io.tidemark.client;

import io.tidemark.client.admin.TidemarkAdmin;
import io.tidemark.client.tso.BeginResult;
import io.tidemark.client.tso.CommitResult;
import io.tidemark.client.tso.NettyTsoClient;
import io.tidemark.client.tso.TsoClient;
import io.tidemark.client.tso.TsoUnavailableException;
import io.tidemark.committable.CommitRecord;
import io.tidemark.committable.CommitState;
import io.tidemark.committable.CommitTable;
import io.tidemark.committable.CommitTableSettings;
import io.tidemark.committable.HBaseCommitTable;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.encoding.CellEncoding;
import io.tidemark.protocol.CommitMode;
import io.tidemark.testing.ForwardingTsoClient;
import io.tidemark.testing.HeldCommitRecords;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.TestCluster;
import io.tidemark.tso.TsoServer;
import io.tidemark.writeset.WriteSetIds;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Clients that die or fail halfway through the protocol, and a TSO that restarts: readers must still see exactly the
 * committed data. Dying clients are simulated by running the protocol's steps by hand (TSO, raw puts, commit table).
 */
@ExtendWith(SharedTestClusters.class)
class FailureTest {

    private static final byte[] X = Bytes.toBytes("x");
    private static final AtomicInteger ROWS = new AtomicInteger();

    private static TestCluster env;
    private static TableName tableName;

    @BeforeAll
    static void createTable(TestCluster shared) throws IOException {
        env = shared;
        tableName = env.createTable("data", Set.of());
    }

    @Test
    void committedButNoShadowCellsIsVisibleAndHealed() throws Exception {
        byte[] row = row();
        long start;
        try (TsoClient tso = NettyTsoClient.create(env.config, TestCluster.connection().getConfiguration());
             Table raw = TestCluster.connection().getTable(tableName)) {
            // A client that commits, writes its commit record, and dies before writing its shadow cells.
            BeginResult begun = tso.begin().get();
            start = begun.startTimestamp();
            raw.put(new Put(row).addColumn(F, X, start, Bytes.toBytes("orphan")));
            CommitResult result = tso.commit(start, begun.commitToken(),
                    new long[] {WriteSetIds.cell(tableName.getName(), row, F, X)},
                    new long[] {WriteSetIds.table(tableName.getName())}).get();
            assertTrue(env.commitTable.tryCommit(new CommitRecord(start, result.commitTimestamp())));

            assertEquals("orphan", readCommitted(row));
            Result shadow = raw.get(new Get(row).addColumn(F, CellEncoding.shadowQualifier(X)).setTimestamp(start));
            assertEquals(result.commitTimestamp(), Bytes.toLong(shadow.getValue(F, CellEncoding.shadowQualifier(X))),
                    "the reader heals the missing shadow cell");
        }
    }

    @Test
    void diedBeforeCommitRecordIsInvalidatedByAReader() throws Exception {
        byte[] row = row();
        seed(row, "before");
        HeldCommitRecords held = new HeldCommitRecords(env.commitTable);
        try (TransactionManager slowTm = env.managerBuilder().commitRecordWriter(held).build();
             TTable table = new TTable(TestCluster.connection(), tableName)) {
            Transaction writer = slowTm.begin();
            table.put(writer, new Put(row).addColumn(F, X, Bytes.toBytes("late")));
            CompletableFuture<Void> commit = HeldCommitRecords.commitInBackground(slowTm, writer);
            held.awaitHeld();

            // The TSO gave the writer a commit timestamp below this reader's start, but there is no record yet.
            assertEquals("before", readCommitted(row));
            assertTrue(env.commitTable.lookup(writer.startTimestamp()).isInvalidated());
            held.release();

            ExecutionException e = assertThrows(ExecutionException.class, () -> commit.get(30, TimeUnit.SECONDS));
            TransactionAbortedException aborted = assertInstanceOf(TransactionAbortedException.class, e.getCause());
            assertEquals(TransactionAbortedException.Reason.INVALIDATED, aborted.reason());
            assertEquals(TransactionState.ROLLED_BACK, writer.state());
            assertEquals("before", readCommitted(row));
            try (Table raw = TestCluster.connection().getTable(tableName)) {
                assertTrue(raw.get(new Get(row).setTimestamp(writer.startTimestamp())).isEmpty());
            }
        }
    }

    @Test
    void shadowCellWriteFailureStillCommits() throws Exception {
        byte[] row = row();
        ShadowCellWriter failing = (table, cells) -> {
            throw new IOException("injected: region server unreachable");
        };
        try (TransactionManager failingTm = env.managerBuilder().shadowCellWriter(failing).build();
             TTable table = new TTable(TestCluster.connection(), tableName)) {
            Transaction tx = failingTm.begin();
            table.put(tx, new Put(row).addColumn(F, X, Bytes.toBytes("committed")));
            failingTm.commit(tx);
            assertEquals(TransactionState.COMMITTED, tx.state());
            CommitState record = env.commitTable.lookup(tx.startTimestamp());
            assertTrue(record.isCommitted(), "the commit record must survive: it is the only proof of the commit");
            assertEquals(tx.commitTimestamp(), record.commitTimestamp());
        }
        assertEquals("committed", readCommitted(row));
    }

    @Test
    void unansweredCommitIsSettledAsAbortedThroughTheCommitTable() throws Exception {
        byte[] row = row();
        seed(row, "before");
        try (NettyTsoClient real = NettyTsoClient.create(env.config, TestCluster.connection().getConfiguration());
             TransactionManager tm = env.managerBuilder().tsoClient(new SilentCommitTsoClient(real)).build();
             TTable table = new TTable(TestCluster.connection(), tableName)) {
            Transaction tx = tm.begin();
            table.put(tx, new Put(row).addColumn(F, X, Bytes.toBytes("unknown")));
            TransactionAbortedException e = assertThrows(TransactionAbortedException.class, () -> tm.commit(tx));
            assertEquals(TransactionAbortedException.Reason.TSO_UNAVAILABLE, e.reason());
            assertInstanceOf(TsoUnavailableException.class, e.getCause());
            assertTrue(env.commitTable.lookup(tx.startTimestamp()).isInvalidated());
        }
        assertEquals("before", readCommitted(row));
    }

    @Test
    void commitRecordWrittenDespiteAnErrorIsSettledAsCommitted() throws Exception {
        byte[] row = row();
        CommitRecordWriter writesThenFails = (record, deadline) -> {
            env.commitTable.tryCommit(record, deadline);
            throw new IOException("injected: the reply was lost after the write");
        };
        try (TransactionManager tm = env.managerBuilder().commitRecordWriter(writesThenFails).build();
             TTable table = new TTable(TestCluster.connection(), tableName)) {
            Transaction tx = tm.begin();
            table.put(tx, new Put(row).addColumn(F, X, Bytes.toBytes("committed anyway")));
            tm.commit(tx);
            assertEquals(TransactionState.COMMITTED, tx.state());
        }
        assertEquals("committed anyway", readCommitted(row));
    }

    /**
     * Issue 9: after a failover, a pending writer of the old TSO incarnation may never get its commit record (in batched
     * mode its dead TSO was to write it), so readers of the new incarnation invalidate it in either mode. That needs
     * the reader's epoch, taken from the HELLO of the connection that answered its BEGIN; the client finds the new TSO
     * (on another port) through the lease in ZooKeeper.
     */
    @Test
    void readerOfANewTsoIncarnationInvalidatesAPendingWriterOfTheOldOneInBatchedMode() throws Exception {
        TidemarkConfig config = TestCluster.config("failover_epoch", CommitMode.BATCHED);
        TsoServer first = TestCluster.startTso(config);
        TsoServer second = null;
        // A table of its own: a table belongs to the commit table of the transactions that use it.
        TableName failoverTable = env.newName("failover");
        new TidemarkAdmin(TestCluster.connection(), config).create(failoverTable, Bytes.toString(F));
        try (TransactionManager tm = TransactionManager.builder(TestCluster.connection()).config(config).build();
             TTable table = new TTable(TestCluster.connection(), failoverTable)) {
            byte[] row = row();
            Transaction writer = tm.begin();
            assertEquals(first.epoch(), writer.readerContext().epoch());
            table.put(writer, new Put(row).addColumn(F, X, Bytes.toBytes("pending")));
            first.close();
            second = TestCluster.startTso(config);

            Transaction reader = tm.begin();
            assertEquals(second.epoch(), reader.readerContext().epoch(), "the epoch of the answering incarnation");
            assertTrue(writer.startTimestamp() <= second.epoch());
            assertNull(table.get(reader, new Get(row)).getValue(F, X));
            CommitTable commitTable = new HBaseCommitTable(TestCluster.connection(), new CommitTableSettings(config));
            assertTrue(commitTable.lookup(writer.startTimestamp()).isInvalidated(),
                    "the old incarnation's pending writer was invalidated");
            TransactionAbortedException e = assertThrows(TransactionAbortedException.class, () -> tm.commit(writer));
            assertEquals(TransactionAbortedException.Reason.STALE_EPOCH, e.reason());
            tm.rollback(reader);
        } finally {
            first.close();
            if (second != null) {
                second.close();
            }
            TestCluster.drop(failoverTable);
        }
    }

    @Test
    void tsoRestartAbortsTransactionsOfTheOldEpoch() throws Exception {
        TidemarkConfig config = TestCluster.config("restart", CommitMode.LOW_LATENCY);
        TsoServer first = TestCluster.startTso(config);
        int port = first.port();
        config.set(TidemarkConfig.CLIENT_TSO_ADDRESS, "127.0.0.1:" + port);
        TsoServer second = null;
        // A table of its own: a table belongs to the commit table of the transactions that use it.
        TableName restartTable = env.newName("restart");
        new TidemarkAdmin(TestCluster.connection(), config).create(restartTable, Bytes.toString(F));
        try (TransactionManager tm = TransactionManager.builder(TestCluster.connection()).config(config).build();
             TTable table = new TTable(TestCluster.connection(), restartTable)) {
            byte[] row = row();
            Transaction old = tm.begin();
            table.put(old, new Put(row).addColumn(F, X, Bytes.toBytes("old epoch")));
            first.close();
            config.set(TidemarkConfig.TSO_PORT, String.valueOf(port));
            second = TestCluster.startTso(config);
            assertTrue(second.epoch() >= old.startTimestamp());

            TransactionAbortedException e = assertThrows(TransactionAbortedException.class, () -> tm.commit(old));
            assertEquals(TransactionAbortedException.Reason.STALE_EPOCH, e.reason());
            Transaction fresh = tm.begin();
            assertTrue(fresh.startTimestamp() > old.startTimestamp());
            assertNull(table.get(fresh, new Get(row)).getValue(F, X));
            table.put(fresh, new Put(row).addColumn(F, X, Bytes.toBytes("new epoch")));
            tm.commit(fresh);
        } finally {
            first.close();
            if (second != null) {
                second.close();
            }
            TestCluster.drop(restartTable);
        }
    }

    @Test
    void unsupportedOperationsAreRefused() throws IOException {
        try (TTable table = new TTable(TestCluster.connection(), tableName)) {
            Transaction tx = env.tm.begin();
            byte[] row = row();
            assertThrows(TimestampNotAllowedException.class,
                    () -> table.put(tx, new Put(row).addColumn(F, X, 42L, Bytes.toBytes("v"))));
            assertThrows(TimestampNotAllowedException.class,
                    () -> table.put(tx, new Put(row, 42L).addColumn(F, X, Bytes.toBytes("v"))));
            assertThrows(TimestampNotAllowedException.class,
                    () -> table.delete(tx, new Delete(row).addColumn(F, X, 42L)));
            assertThrows(TimestampNotAllowedException.class, () -> table.get(tx, new Get(row).setTimestamp(42L)));
            assertThrows(TimestampNotAllowedException.class,
                    () -> table.getScanner(tx, new Scan().setTimeRange(0, 42L)));
            assertThrows(IllegalArgumentException.class, () -> table.put(tx,
                    new Put(row).addColumn(F, CellEncoding.shadowQualifier(X), Bytes.toBytes("v"))));
            UnsupportedOperationException filter = assertThrows(UnsupportedOperationException.class,
                    () -> table.get(tx, new Get(row).setFilter(new KeyOnlyFilter())));
            assertTrue(filter.getMessage().contains("coprocessor"), filter.getMessage());
            assertThrows(UnsupportedOperationException.class, () -> table.get(tx, new Get(row).readVersions(2)));
            assertThrows(UnsupportedOperationException.class, () -> table.getScanner(tx, new Scan().setBatch(10)));
            assertThrows(UnsupportedOperationException.class,
                    () -> table.getScanner(tx, new Scan().setAllowPartialResults(true)));
            assertThrows(UnsupportedOperationException.class, () -> table.getScanner(tx, new Scan().readVersions(3)));
            env.tm.rollback(tx);
        }
    }

    @Test
    void transactionUsedAfterCommitIsRefused() throws IOException {
        try (TTable table = new TTable(TestCluster.connection(), tableName);
             TransactionManager other = env.managerBuilder().build()) {
            Transaction tx = env.tm.begin();
            assertThrows(TransactionStateException.class, () -> other.commit(tx));
            env.tm.commit(tx);
            byte[] row = row();
            assertThrows(TransactionStateException.class,
                    () -> table.put(tx, new Put(row).addColumn(F, X, Bytes.toBytes("v"))));
            assertThrows(TransactionStateException.class, () -> table.get(tx, new Get(row)));
            assertThrows(TransactionStateException.class, () -> env.tm.commit(tx));
            assertThrows(TransactionStateException.class, () -> env.tm.rollback(tx));

            Transaction rolledBack = env.tm.begin();
            env.tm.rollback(rolledBack);
            assertThrows(TransactionStateException.class, () -> rolledBack.commitTimestamp());
            assertThrows(TransactionStateException.class, () -> env.tm.commit(rolledBack));
        }
    }

    @Test
    void tableWithTooFewVersionsIsRefused() throws IOException {
        TableName oneVersion = env.createPlainTable("oneversion", 1);
        try (TTable table = new TTable(TestCluster.connection(), oneVersion)) {
            Transaction tx = env.tm.begin();
            TableNotTransactionalException e = assertThrows(TableNotTransactionalException.class,
                    () -> table.put(tx, new Put(row()).addColumn(F, X, Bytes.toBytes("v"))));
            assertNotNull(e.getMessage());
            assertTrue(e.getMessage().contains("alter '" + oneVersion.getNameAsString() + "', {NAME => '"),
                    e.getMessage());
            assertTrue(e.getMessage().contains("VERSIONS => 2147483647"), e.getMessage());
            env.tm.rollback(tx);
        }
    }

    /** Forwards BEGIN, but every COMMIT goes unanswered, as when the TSO dies with the request in flight. */
    private static final class SilentCommitTsoClient extends ForwardingTsoClient {

        SilentCommitTsoClient(TsoClient delegate) {
            super(delegate);
        }

        @Override
        public CompletableFuture<CommitResult> commit(long startTimestamp, long commitToken, long[] writeSet,
                                                      long[] tableIds) {
            return CompletableFuture.failedFuture(new TsoUnavailableException("injected: no reply to COMMIT"));
        }
    }

    private static byte[] row() {
        return Bytes.toBytes("failure-" + ROWS.incrementAndGet());
    }

    private static void seed(byte[] row, String value) throws IOException {
        try (TTable table = new TTable(TestCluster.connection(), tableName)) {
            Transaction tx = env.tm.begin();
            table.put(tx, new Put(row).addColumn(F, X, Bytes.toBytes(value)));
            env.tm.commit(tx);
        }
    }

    private static String readCommitted(byte[] row) throws IOException {
        try (TTable table = new TTable(TestCluster.connection(), tableName)) {
            Transaction tx = env.tm.begin();
            byte[] value = table.get(tx, new Get(row).addColumn(F, X)).getValue(F, X);
            env.tm.commit(tx);
            return value == null ? null : Bytes.toString(value);
        }
    }
}
