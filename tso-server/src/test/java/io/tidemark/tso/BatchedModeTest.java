package io.tidemark.tso;

import io.tidemark.committable.CommitState;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The TSO in batched mode writes commit records itself and only then replies. */
class BatchedModeTest {

    private static TidemarkConfig config;
    private static TsoServer server;
    private static CommitTable commitTable;

    @BeforeAll
    static void startServer() throws IOException {
        config = TestTso.config("batched", CommitMode.BATCHED);
        // A long timeout so that a reply not waiting for durability would clearly arrive before the record.
        config.set(TidemarkConfig.TSO_BATCH_FLUSH_TIMEOUT_MS, "200");
        config.set(TidemarkConfig.TSO_BATCH_MAX_SIZE, "50");
        TestTso.Cluster cluster = new TestTso.Cluster();
        server = cluster.start(config);
        commitTable = cluster.commitTable;
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void helloAnnouncesBatchedMode() throws IOException {
        try (TsoTestClient client = TsoTestClient.connect(server.port())) {
            assertEquals(CommitMode.BATCHED, client.hello().commitMode());
        }
    }

    @Test
    void commitRecordIsDurableWhenCommittedArrives() throws IOException {
        try (TsoTestClient client = TsoTestClient.connected(server.port())) {
            long start = client.begin();
            CommittedReply reply = assertInstanceOf(CommittedReply.class, client.commit(start, 11));
            CommitState state = commitTable.lookup(start);
            assertTrue(state.isCommitted(), "record of " + start + " is " + state);
            assertEquals(reply.commitTimestamp(), state.commitTimestamp());
        }
    }

    @Test
    void beginWaitsUntilEarlierCommitsAreDurable() throws IOException {
        try (TsoTestClient client = TsoTestClient.connected(server.port())) {
            long start = client.begin();
            CommitRequest commit = client.commitRequest(start, 12);
            long beginId = client.nextRequestId();
            client.send(commit);
            client.send(new BeginRequest(beginId));
            Map<Long, Message> replies = new HashMap<>();
            BeginReply begin = null;
            while (begin == null) {
                Message reply = client.receive();
                if (reply instanceof BeginReply) {
                    begin = (BeginReply) reply;
                    assertTrue(commitTable.lookup(start).isCommitted(),
                            "BEGIN answered before the earlier commit was durable");
                } else {
                    replies.put(((CommittedReply) reply).requestId(), reply);
                }
            }
            assertEquals(beginId, begin.requestId());
            CommittedReply committed = assertInstanceOf(CommittedReply.class, replies.get(commit.requestId()));
            assertTrue(begin.startTimestamp() > committed.commitTimestamp());
        }
    }

    @Test
    void invalidatedTransactionIsAborted() throws IOException {
        try (TsoTestClient client = TsoTestClient.connected(server.port())) {
            long start = client.begin();
            assertTrue(commitTable.invalidate(start).isInvalidated());
            AbortedReply aborted = assertInstanceOf(AbortedReply.class, client.commit(start, 13));
            assertEquals(AbortReason.INVALIDATED, aborted.reason());
            assertTrue(commitTable.lookup(start).isInvalidated());
        }
    }

    @Test
    void fullBatchesAreWrittenWithoutWaitingForTimeout() throws IOException {
        try (TsoTestClient client = TsoTestClient.connected(server.port())) {
            int count = 120;
            long[] starts = new long[count];
            for (int i = 0; i < count; i++) {
                starts[i] = client.begin();
            }
            for (int i = 0; i < count; i++) {
                client.send(client.commitRequest(starts[i], 10_000 + i));
            }
            for (int i = 0; i < count; i++) {
                CommittedReply reply = assertInstanceOf(CommittedReply.class, client.receive());
                assertTrue(commitTable.lookup(reply.startTimestamp()).isCommitted());
            }
            assertTrue(server.metrics().histogram(TsoMetrics.BATCH_SIZE).getSnapshot().getMax() > 1);
            assertTrue(server.metrics().timer(TsoMetrics.COMMIT_TABLE_WRITE).getCount() >= 1);
        }
    }
}
