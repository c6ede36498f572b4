package io.tidemark.client;

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
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
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
            CompletableFuture<Void> commit = CompletableFuture.runAsync(() -> {
                try {
                    writerTm.commit(writer);
                } catch (TransactionException e) {
                    throw new CompletionException(e);
                }
            });
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

    private static byte[] row() {
        return Bytes.toBytes("row" + ROWS.incrementAndGet());
    }
}
