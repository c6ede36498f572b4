package io.tidemark.tso;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.CommitRequest;
import io.tidemark.protocol.CommittedReply;
import io.tidemark.protocol.ErrorCode;
import io.tidemark.protocol.ErrorReply;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 11: a 2-million-id COMMIT stalled the event loop and raised the low watermark past live transactions. A COMMIT
 * above {@code tidemark.tso.max-write-set} is refused before anything of it reaches the conflict map.
 */
class WriteSetCapTest {

    private static final int CAP = 100;
    private static TsoServer server;

    @BeforeAll
    static void startServer() throws IOException {
        TidemarkConfig config = TestTso.config("write_set_cap", CommitMode.LOW_LATENCY);
        config.set(TidemarkConfig.TSO_MAX_WRITE_SET, Integer.toString(CAP));
        config.set(TidemarkConfig.TSO_MAX_FRAME_BYTES, "65536");
        server = TestTso.start(config);
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void helloAnnouncesTheCap() throws IOException {
        try (TsoTestClient client = TsoTestClient.connect(server.port())) {
            assertEquals(CAP, client.hello().maxWriteSet());
        }
    }

    @Test
    void aCommitAboveTheCapIsRefusedBeforeConflictDetection() throws IOException {
        long[] oversized = LongStream.rangeClosed(1, CAP + 1).map(i -> 9_000_000 + i).toArray();
        try (TsoTestClient client = TsoTestClient.connected(server.port());
             TsoTestClient bystander = TsoTestClient.connected(server.port())) {
            long refusedBefore = server.metrics().counter(TsoMetrics.OVERSIZED_COMMITS).getCount();
            long later = bystander.begin();
            long big = client.begin();
            // The bystander began first: had the big commit been recorded, the bystander would now conflict.
            ErrorReply error = assertInstanceOf(ErrorReply.class, client.commit(big, oversized));
            assertEquals(ErrorCode.WRITE_SET_TOO_LARGE, error.code(), error.text());
            assertTrue(error.text().contains(TidemarkConfig.TSO_MAX_WRITE_SET.key()), error.text());
            assertTrue(client.closedByServer());
            assertEquals(refusedBefore + 1, server.metrics().counter(TsoMetrics.OVERSIZED_COMMITS).getCount());

            assertInstanceOf(CommittedReply.class, bystander.commit(later, oversized[0], oversized[CAP]),
                    "nothing of the refused commit reached the conflict map");
        }
    }

    @Test
    void aCommitAtTheCapCommitsAndTooManyTableIdsAreRefused() throws IOException {
        try (TsoTestClient client = TsoTestClient.connected(server.port())) {
            long start = client.begin();
            assertInstanceOf(CommittedReply.class,
                    client.commit(start, LongStream.rangeClosed(1, CAP).map(i -> 8_000_000 + i).toArray()));

            long next = client.begin();
            CommitRequest tooManyTables = new CommitRequest(client.nextRequestId(), next,
                    TsoTestClient.tokenOf(next), new long[] {1}, new long[CAP + 1]);
            client.send(tooManyTables);
            assertEquals(ErrorCode.WRITE_SET_TOO_LARGE, assertInstanceOf(ErrorReply.class, client.receive()).code());
        }
    }

    @Test
    void aFrameTooSmallForTheCapIsRefusedAtStartUp() {
        TidemarkConfig config = TestTso.config("write_set_cap_frame", CommitMode.LOW_LATENCY);
        config.set(TidemarkConfig.TSO_MAX_WRITE_SET, "100000");
        config.set(TidemarkConfig.TSO_MAX_FRAME_BYTES, "65536");
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new TsoSettings(config));
        assertTrue(e.getMessage().contains(TidemarkConfig.TSO_MAX_FRAME_BYTES.key())
                && e.getMessage().contains(TidemarkConfig.TSO_MAX_WRITE_SET.key()), e.getMessage());
    }
}
