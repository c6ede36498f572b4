package io.tidemark.tso;

import io.tidemark.protocol.AbortReason;
import io.tidemark.protocol.AbortedReply;
import io.tidemark.protocol.BeginReply;
import io.tidemark.protocol.BeginRequest;
import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.CommittedReply;
import io.tidemark.protocol.ErrorCode;
import io.tidemark.protocol.ErrorReply;
import io.tidemark.protocol.Hello;
import io.tidemark.protocol.HelloReply;
import io.tidemark.protocol.Message;
import io.tidemark.protocol.Protocol;
import io.tidemark.timestamp.Timestamps;
import io.tidemark.writeset.WriteSetIds;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The TSO in low-latency mode, over real sockets, on the shared mini-cluster. */
class LowLatencyTsoTest {

    private static TsoServer server;

    @BeforeAll
    static void startServer() throws IOException {
        server = TestTso.start(TestTso.config("lowlatency", CommitMode.LOW_LATENCY));
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void handshakeAnnouncesVersionModeAndEpoch() throws IOException {
        try (TsoTestClient client = TsoTestClient.connect(server.port())) {
            HelloReply reply = client.hello();
            assertEquals(Protocol.VERSION, reply.version());
            assertEquals(CommitMode.LOW_LATENCY, reply.commitMode());
            assertEquals(server.epoch(), reply.epoch());
        }
    }

    @Test
    void beginReturnsIncreasingTsoTimestampsAboveEpoch() throws IOException {
        try (TsoTestClient client = TsoTestClient.connected(server.port())) {
            long previous = server.epoch();
            for (int i = 0; i < 500; i++) {
                long ts = client.begin();
                assertTrue(Timestamps.isTsoTimestamp(ts), ts + " is not a TSO timestamp");
                assertTrue(ts > previous, ts + " does not follow " + previous);
                previous = ts;
            }
        }
    }

    @Test
    void conflictingCommitsFirstCommitterWins() throws IOException {
        try (TsoTestClient a = TsoTestClient.connected(server.port());
             TsoTestClient b = TsoTestClient.connected(server.port())) {
            long startA = a.begin();
            long startB = b.begin();
            Message replyB = b.commit(startB, 1001, 1002);
            Message replyA = a.commit(startA, 1002, 1003);
            CommittedReply committed = assertInstanceOf(CommittedReply.class, replyB);
            assertTrue(committed.commitTimestamp() > startB);
            AbortedReply aborted = assertInstanceOf(AbortedReply.class, replyA);
            assertEquals(AbortReason.CONFLICT, aborted.reason());
            assertEquals(startA, aborted.startTimestamp());

            long startC = a.begin();
            assertInstanceOf(CommittedReply.class, a.commit(startC, 1002),
                    "a transaction that started after the winner committed does not conflict with it");
        }
    }

    @Test
    void disjointWriteSetsBothCommit() throws IOException {
        try (TsoTestClient client = TsoTestClient.connected(server.port())) {
            long first = client.begin();
            long second = client.begin();
            assertInstanceOf(CommittedReply.class, client.commit(first, 2001));
            assertInstanceOf(CommittedReply.class, client.commit(second, 2002));
        }
    }

    @Test
    void pipelinedRequestsAreAllAnswered() throws IOException {
        try (TsoTestClient client = TsoTestClient.connected(server.port())) {
            int count = 200;
            long[] starts = new long[count];
            for (int i = 0; i < count; i++) {
                starts[i] = client.begin();
            }
            for (int i = 0; i < count; i++) {
                client.send(client.commitRequest(starts[i], 3_000_000L + i));
            }
            for (int i = 0; i < count; i++) {
                assertInstanceOf(CommittedReply.class, client.receive());
            }
        }
    }

    @Test
    void commitWithForgedStartTimestampIsRejected() throws IOException {
        try (TsoTestClient client = TsoTestClient.connected(server.port())) {
            long start = client.begin();
            ErrorReply error = assertInstanceOf(ErrorReply.class, client.commit(start + 1, 4001));
            assertEquals(ErrorCode.MALFORMED, error.code());
            assertTrue(error.text().contains("not a TSO timestamp"), error.text());
            assertTrue(client.closedByServer());
        }
        try (TsoTestClient client = TsoTestClient.connected(server.port())) {
            long start = client.begin();
            ErrorReply error = assertInstanceOf(ErrorReply.class,
                    client.commit(start + 1000 * Timestamps.TSO_STEP, 4001));
            assertEquals(ErrorCode.MALFORMED, error.code());
            assertTrue(client.closedByServer());
        }
    }

    @Test
    void aCommitOfOnlyConflictFreeWritesIsGrantedAndConflictsWithNothing() throws IOException {
        try (TsoTestClient client = TsoTestClient.connected(server.port())) {
            long loser = client.begin();
            long conflictFree = client.begin();
            assertInstanceOf(CommittedReply.class, client.commit(client.begin(), 6001));
            assertInstanceOf(CommittedReply.class, client.exchange(client.commitRequestWithTables(conflictFree,
                    new long[0], 7)));
            assertInstanceOf(AbortedReply.class, client.commit(loser, 6001), "conflict detection still runs");
        }
    }

    @Test
    void aFenceAbortsEarlierTransactionsWritingItsTableOnly() throws IOException {
        long table = 8001;
        long other = 8002;
        try (TsoTestClient client = TsoTestClient.connected(server.port())) {
            long writesTable = client.begin();
            long writesOther = client.begin();
            long fence = client.begin();
            assertInstanceOf(CommittedReply.class, client.exchange(client.commitRequestWithTables(fence,
                    new long[] {WriteSetIds.fence(table)}, table)));
            long afterFence = client.begin();

            AbortedReply fenced = assertInstanceOf(AbortedReply.class,
                    client.exchange(client.commitRequestWithTables(writesTable, new long[] {8101}, table)));
            assertEquals(AbortReason.FENCED, fenced.reason());
            assertInstanceOf(CommittedReply.class,
                    client.exchange(client.commitRequestWithTables(writesOther, new long[] {8102}, other)));
            assertInstanceOf(CommittedReply.class,
                    client.exchange(client.commitRequestWithTables(afterFence, new long[] {8103}, table)));
        }
    }

    @Test
    void aCommitNamingNoWriteAndNoTableIsRefused() throws IOException {
        try (TsoTestClient client = TsoTestClient.connected(server.port())) {
            long start = client.begin();
            ErrorReply error = assertInstanceOf(ErrorReply.class,
                    client.exchange(client.commitRequestWithTables(start, new long[0])));
            assertEquals(ErrorCode.MALFORMED, error.code());
            assertTrue(error.text().contains("names no write and no table"), error.text());
        }
    }

    @Test
    void metricsCountBeginsCommitsAndAborts() throws IOException {
        long begins = server.metrics().counter(TsoMetrics.BEGINS).getCount();
        long conflicts = server.metrics().counter(TsoMetrics.abortName(AbortReason.CONFLICT)).getCount();
        try (TsoTestClient client = TsoTestClient.connected(server.port())) {
            long loser = client.begin();
            long winner = client.begin();
            assertInstanceOf(CommittedReply.class, client.commit(winner, 5001));
            assertInstanceOf(AbortedReply.class, client.commit(loser, 5001));
        }
        assertTrue(server.metrics().counter(TsoMetrics.BEGINS).getCount() >= begins + 2);
        assertTrue(server.metrics().counter(TsoMetrics.abortName(AbortReason.CONFLICT)).getCount() >= conflicts + 1);
        assertTrue(server.metrics().counter(TsoMetrics.COMMITS).getCount() >= 1);
        assertTrue(server.metrics().getGauges().containsKey(TsoMetrics.LOW_WATERMARK));
    }

    @Test
    void helloAndRequestsMayArriveInOnePacket() throws IOException {
        try (TsoTestClient client = TsoTestClient.connect(server.port())) {
            ByteArrayOutputStream packet = new ByteArrayOutputStream();
            for (Message m : new Message[] {Hello.current(), new BeginRequest(1), new BeginRequest(2)}) {
                packet.write(TsoTestClient.frame(m));
            }
            client.sendRaw(packet.toByteArray());
            assertInstanceOf(HelloReply.class, client.receive());
            long first = assertInstanceOf(BeginReply.class, client.receive()).startTimestamp();
            long second = assertInstanceOf(BeginReply.class, client.receive()).startTimestamp();
            assertTrue(second > first);
        }
    }
}
