package io.tidemark.tso;

import io.tidemark.committable.CommitTable;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.AbortReason;
import io.tidemark.protocol.AbortedReply;
import io.tidemark.protocol.BeginReply;
import io.tidemark.protocol.BeginRequest;
import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.CommitRequest;
import io.tidemark.protocol.CommittedReply;
import io.tidemark.protocol.Message;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 9: when a commit-table batch failed, its committers got ERROR but the durable mark still rose and the BEGINs
 * waiting on it were answered, so a reader could miss a commit that landed later below its start. Now a failed batch
 * is retried until durable, and the BEGINs wait for it; once the commit-record deadline has passed, it is settled by
 * invalidation instead, never by a late commit record. Run in memory ({@link BatchedWriteFailureTest}) and on HBase
 * with the commit table disabled ({@code BatchedWriteFailureOnHBaseTest}).
 */
abstract class BatchedWriteFailureContract {

    /** The shared parts the TSOs configured by {@code config} run on; each call a cluster of its own. */
    protected abstract TsoCluster cluster(TidemarkConfig config) throws Exception;

    /** From now on every commit-table write of {@code cluster} fails, until {@link #commitTableBack}. */
    protected abstract void commitTableUnavailable(TsoCluster cluster) throws Exception;

    protected abstract void commitTableBack(TsoCluster cluster) throws Exception;

    @Test
    void failedBatchIsRetriedUntilDurableWhileBeginsWait() throws Exception {
        TidemarkConfig config = TestTso.config("batched_failure", CommitMode.BATCHED);
        config.set(TidemarkConfig.TSO_BATCH_FLUSH_TIMEOUT_MS, "1");
        TsoCluster cluster = cluster(config);
        CommitTable commitTable = cluster.commitTable();
        try (TsoServer server = cluster.start(config);
             TsoTestClient client = TsoTestClient.connected(server.port())) {
            long start = client.begin();
            commitTableUnavailable(cluster);
            CommitRequest commit = client.commitRequest(start, 1);
            long beginId = client.nextRequestId();
            client.send(commit);
            client.send(new BeginRequest(beginId));
            try {
                // More failed attempts than the old code made before giving up and answering.
                long deadline = System.currentTimeMillis() + 60_000;
                while (server.metrics().counter(TsoMetrics.COMMIT_TABLE_FAILURES).getCount() < 4
                        && System.currentTimeMillis() < deadline) {
                    Thread.sleep(20);
                }
                assertTrue(server.metrics().counter(TsoMetrics.COMMIT_TABLE_FAILURES).getCount() >= 4);
                assertEquals(0, client.bytesWaiting(), "nothing may be answered while the batch is not durable");
            } finally {
                commitTableBack(cluster);
            }
            Map<Long, Message> replies = commitAndBeginReplies(client, CommittedReply.class,
                    () -> commitTable.lookup(start).isCommitted());
            CommittedReply committed = assertInstanceOf(CommittedReply.class, replies.get(commit.requestId()));
            assertEquals(committed.commitTimestamp(), commitTable.lookup(start).commitTimestamp());
            BeginReply begun = assertInstanceOf(BeginReply.class, replies.get(beginId));
            assertTrue(begun.startTimestamp() > committed.commitTimestamp());
            assertTrue(server.isActive(), "the TSO keeps serving");
        }
    }

    /**
     * The commit-table sweeper may remove an invalidation marker once the commit-record deadline of every commit
     * granted before it read the low watermark has passed; a batch retried until durable would write its record after
     * that. So a batch still not durable at its deadline invalidates its transactions instead (retried the same way,
     * BEGINs still waiting), and the commit is answered ABORTED, never COMMITTED by a record written late.
     */
    @Test
    void aBatchNotDurableByItsDeadlineIsInvalidatedAndNeverWrittenLater() throws Exception {
        TidemarkConfig config = TestTso.config("batched_deadline", CommitMode.BATCHED);
        config.set(TidemarkConfig.TSO_BATCH_FLUSH_TIMEOUT_MS, "1");
        config.set(TidemarkConfig.CLIENT_COMMIT_RECORD_TIMEOUT_MS, "1000");
        TsoCluster cluster = cluster(config);
        CommitTable commitTable = cluster.commitTable();
        try (TsoServer server = cluster.start(config);
             TsoTestClient client = TsoTestClient.connected(server.port())) {
            long start = client.begin();
            commitTableUnavailable(cluster);
            CommitRequest commit = client.commitRequest(start, 1);
            long beginId = client.nextRequestId();
            long sent = System.nanoTime();
            client.send(commit);
            client.send(new BeginRequest(beginId));
            try {
                // Wait (no timing is asserted) until an attempt failed after the deadline had passed.
                long failuresBefore = Long.MAX_VALUE;
                long giveUp = System.currentTimeMillis() + 60_000;
                while (System.currentTimeMillis() < giveUp) {
                    long failures = server.metrics().counter(TsoMetrics.COMMIT_TABLE_FAILURES).getCount();
                    if (failuresBefore == Long.MAX_VALUE && System.nanoTime() - sent > 1_100_000_000L) {
                        failuresBefore = failures;
                    } else if (failures > failuresBefore) {
                        break;
                    }
                    Thread.sleep(20);
                }
                assertTrue(server.metrics().counter(TsoMetrics.COMMIT_TABLE_FAILURES).getCount() > failuresBefore);
                assertEquals(0, client.bytesWaiting(), "nothing may be answered while the commit is undecided");
            } finally {
                commitTableBack(cluster);
            }
            Map<Long, Message> replies = commitAndBeginReplies(client, AbortedReply.class,
                    () -> commitTable.lookup(start).isInvalidated());
            AbortedReply aborted = assertInstanceOf(AbortedReply.class, replies.get(commit.requestId()));
            assertEquals(AbortReason.INVALIDATED, aborted.reason());
            assertTrue(commitTable.lookup(start).isInvalidated(), "no commit record was written after the deadline");
            assertInstanceOf(BeginReply.class, replies.get(beginId));
            assertTrue(server.isActive(), "the TSO keeps serving");
        }
    }

    /**
     * The replies to a COMMIT (of type {@code commitReply}) and to the BEGIN sent after it, by request id; when the
     * BEGIN is answered, the commit must already be decided in the commit table.
     */
    private static Map<Long, Message> commitAndBeginReplies(TsoTestClient client,
            Class<? extends Message> commitReply, Decided decided) throws Exception {
        Map<Long, Message> replies = new HashMap<>();
        for (int i = 0; i < 2; i++) {
            Message reply = client.receive();
            if (reply instanceof BeginReply) {
                assertTrue(decided.check(), "BEGIN answered before the earlier commit was decided");
                replies.put(((BeginReply) reply).requestId(), reply);
            } else {
                assertInstanceOf(commitReply, reply);
                replies.put(reply instanceof CommittedReply ? ((CommittedReply) reply).requestId()
                        : ((AbortedReply) reply).requestId(), reply);
            }
        }
        return replies;
    }

    /** Whether the commit is decided in the commit table. */
    private interface Decided {
        boolean check() throws Exception;
    }
}
