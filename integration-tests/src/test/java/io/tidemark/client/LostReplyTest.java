package io.tidemark.client;

import io.tidemark.table.TableFeature;
import io.tidemark.client.fastpath.FastPathTable;
import io.tidemark.client.fastpath.VersionedResult;
import io.tidemark.committable.CommitTableSettings;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.testing.HeldCommitRecords;
import io.tidemark.testing.TestCluster;
import io.tidemark.testing.faults.LostReplies;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 8, item 1: a commit-table write whose reply is lost is re-sent by HBase's client and then meets its own first
 * attempt. The outcome must not change: a committed transaction is reported committed and its data stays visible;
 * an invalidation stays an invalidation. The {@code LostReplyInjector} on the commit table makes the region server
 * apply the write and fail the reply with a retryable error.
 */
class LostReplyTest {

    private static final byte[] X = Bytes.toBytes("x");
    private static final byte[] Y = Bytes.toBytes("y");
    private static final AtomicInteger ROWS = new AtomicInteger();
    private static final Map<Setup, Deployment> DEPLOYMENTS = new EnumMap<>(Setup.class);

    /** Who writes commit records (client or TSO), and whether the commit table has the guard. */
    enum Setup {
        LOW_LATENCY(CommitMode.LOW_LATENCY, false),
        LOW_LATENCY_GUARDED(CommitMode.LOW_LATENCY, true),
        BATCHED(CommitMode.BATCHED, false),
        BATCHED_GUARDED(CommitMode.BATCHED, true);

        final CommitMode mode;
        final boolean guard;

        Setup(CommitMode mode, boolean guard) {
            this.mode = mode;
            this.guard = guard;
        }
    }

    private static final class Deployment {
        final TestCluster cluster;
        final TableName commitTable;
        final TableName data;

        Deployment(TestCluster cluster, TableName commitTable, TableName data) {
            this.cluster = cluster;
            this.commitTable = commitTable;
            this.data = data;
        }
    }

    private static synchronized Deployment deployment(Setup setup) throws IOException {
        Deployment d = DEPLOYMENTS.get(setup);
        if (d == null) {
            TestCluster cluster = TestCluster.start("lostreply_" + setup.name().toLowerCase(), setup.mode, config -> {
                config.set(TidemarkConfig.COMMIT_TABLE_GUARD, String.valueOf(setup.guard));
                // No low-watermark writes to the commit table while a test waits for its one lost reply.
                config.set(TidemarkConfig.TSO_LOW_WATERMARK_PERSIST_MS, "3600000");
            });
            TableName commitTable = new CommitTableSettings(cluster.config).tableName();
            LostReplies.attachTo(TestCluster.connection(), commitTable);
            d = new Deployment(cluster, commitTable, cluster.createTable("data", Set.of()));
            DEPLOYMENTS.put(setup, d);
        }
        return d;
    }

    @AfterEach
    void disarm() {
        DEPLOYMENTS.values().forEach(d -> LostReplies.disarm(d.commitTable));
    }

    @AfterAll
    static void stop() {
        DEPLOYMENTS.values().forEach(d -> d.cluster.close());
    }

    @ParameterizedTest
    @EnumSource(Setup.class)
    void aCommitWhoseRecordReplyIsLostIsReportedCommittedAndStaysVisible(Setup setup) throws Exception {
        Deployment d = deployment(setup);
        byte[] row = row();
        try (TTable table = new TTable(TestCluster.connection(), d.data)) {
            Transaction tx = d.cluster.tm.begin();
            table.put(tx, new Put(row).addColumn(F, X, Bytes.toBytes("committed")));
            long lost = LostReplies.lost(d.commitTable);
            LostReplies.armNext(d.commitTable, 1);

            d.cluster.tm.commit(tx);

            assertEquals(lost + 1, LostReplies.lost(d.commitTable), "the commit record's reply was lost");
            assertEquals(TransactionState.COMMITTED, tx.state());
            Transaction reader = d.cluster.tm.begin();
            assertEquals("committed", Bytes.toString(table.get(reader, new Get(row)).getValue(F, X)));
        }
    }

    @Test
    void aReaderWhoseInvalidationReplyIsLostStillInvalidatesThePendingWriter() throws Exception {
        Deployment d = deployment(Setup.LOW_LATENCY);
        byte[] row = row();
        HeldCommitRecords held = new HeldCommitRecords(d.cluster.commitTable);
        try (TransactionManager writerTm = d.cluster.managerBuilder().commitRecordWriter(held).build();
             TTable table = new TTable(TestCluster.connection(), d.data)) {
            Transaction seed = d.cluster.tm.begin();
            table.put(seed, new Put(row).addColumn(F, X, Bytes.toBytes("before")));
            d.cluster.tm.commit(seed);

            Transaction writer = writerTm.begin();
            table.put(writer, new Put(row).addColumn(F, X, Bytes.toBytes("pending")));
            CompletableFuture<Void> commit = HeldCommitRecords.commitInBackground(writerTm, writer);
            held.awaitHeld();

            long lost = LostReplies.lost(d.commitTable);
            LostReplies.armNext(d.commitTable, 1);
            Transaction reader = d.cluster.tm.begin();
            assertEquals("before", Bytes.toString(table.get(reader, new Get(row)).getValue(F, X)));
            assertEquals(lost + 1, LostReplies.lost(d.commitTable), "the invalidation's reply was lost");
            assertTrue(d.cluster.commitTable.lookup(writer.startTimestamp()).isInvalidated());
            held.release();

            ExecutionException e = assertThrows(ExecutionException.class, () -> commit.get(30, TimeUnit.SECONDS));
            TransactionAbortedException aborted = assertInstanceOf(TransactionAbortedException.class, e.getCause());
            assertEquals(TransactionAbortedException.Reason.INVALIDATED, aborted.reason());
        }
    }

    /**
     * The fast path's plain get invalidates a writer that could commit below the version it answers (docs/fast-path.md,
     * "Reading a row"), from inside the region server. When that invalidation's reply is lost, the region server's own
     * HBase client re-sends it; it must still count as an invalidation, and the writer must still lose.
     */
    @Test
    void aFastPathGetWhoseInvalidationReplyIsLostStillInvalidatesTheWriterBelowItsVersion() throws Exception {
        Deployment d = deployment(Setup.LOW_LATENCY);
        TableName fastPathData = d.cluster.createTable("fastpath", EnumSet.of(TableFeature.FAST_PATH));
        byte[] row = row();
        HeldCommitRecords held = new HeldCommitRecords(d.cluster.commitTable);
        try (TransactionManager writerTm = d.cluster.managerBuilder().commitRecordWriter(held).build();
             TTable table = new TTable(TestCluster.connection(), fastPathData);
             FastPathTable fp = d.cluster.fastPath(fastPathData)) {
            Transaction w1 = writerTm.begin();
            table.put(w1, new Put(row).addColumn(F, X, Bytes.toBytes("w1")));
            CompletableFuture<Void> commit = HeldCommitRecords.commitInBackground(writerTm, w1);
            held.awaitHeld();
            Transaction w2 = d.cluster.tm.begin();
            table.put(w2, new Put(row).addColumn(F, Y, Bytes.toBytes("w2")));
            d.cluster.tm.commit(w2);
            awaitRecordRemoved(d, w2.startTimestamp());

            long lost = LostReplies.lost(d.commitTable);
            LostReplies.armNext(d.commitTable, 1);
            VersionedResult read = fp.get(new Get(row));
            assertEquals(lost + 1, LostReplies.lost(d.commitTable), "the invalidation's reply was lost");
            assertNull(read.result().getValue(F, X));
            assertEquals("w2", Bytes.toString(read.result().getValue(F, Y)));
            assertEquals(w2.commitTimestamp(), read.version());
            assertTrue(d.cluster.commitTable.lookup(w1.startTimestamp()).isInvalidated());
            held.release();

            ExecutionException e = assertThrows(ExecutionException.class, () -> commit.get(30, TimeUnit.SECONDS));
            TransactionAbortedException aborted = assertInstanceOf(TransactionAbortedException.class, e.getCause());
            assertEquals(TransactionAbortedException.Reason.INVALIDATED, aborted.reason());
        } finally {
            held.release();
        }
    }

    /** Waits until the asynchronous post-commit removed the record, so that no other write meets the lost reply. */
    private static void awaitRecordRemoved(Deployment d, long startTimestamp) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!d.cluster.commitTable.lookup(startTimestamp).isAbsent()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the commit record of " + startTimestamp + " was never removed");
            }
            Thread.sleep(10);
        }
    }

    private static byte[] row() {
        return Bytes.toBytes("row" + ROWS.incrementAndGet());
    }
}
