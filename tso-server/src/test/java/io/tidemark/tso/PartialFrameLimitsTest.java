package io.tidemark.tso;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.CommittedReply;
import io.tidemark.protocol.ErrorCode;
import io.tidemark.protocol.ErrorReply;
import io.tidemark.protocol.MessageType;
import io.tidemark.tso.monitoring.TsoStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 33, finding 2: connections holding a partial maximum-size frame after HELLO each cost the TSO memory until the
 * idle timeout (five minutes), and enough of them ran it out of direct memory. A frame must now arrive within the
 * frame timeout, and partial frames over all connections stay within a budget, the oldest closed first.
 */
@Timeout(120)
class PartialFrameLimitsTest {

    private static final int FRAME = 64 * 1024;

    @Test
    void aFrameNotCompleteWithinTheFrameTimeoutClosesItsConnection() throws IOException {
        TidemarkConfig config = TestTso.config("frame_timeout", CommitMode.LOW_LATENCY);
        config.set(TidemarkConfig.TSO_FRAME_TIMEOUT_MS, "300");
        try (TsoServer server = TestTso.start(config);
             TsoTestClient client = TsoTestClient.connected(server.port())) {
            client.sendRaw(partialFrame(FRAME, 1000));
            ErrorReply error = assertInstanceOf(ErrorReply.class, client.receive());
            assertEquals(ErrorCode.MALFORMED, error.code(), error.text());
            assertTrue(error.text().contains(TidemarkConfig.TSO_FRAME_TIMEOUT_MS.key()), error.text());
            assertTrue(client.closedByServer());
            assertEquals(1, server.metrics().counter(TsoMetrics.FRAME_TIMEOUTS).getCount());
        }
    }

    @Test
    void partialFramesBeyondTheBudgetCloseTheOldestAndNobodyElseNotices() throws IOException {
        TidemarkConfig config = TestTso.config("frame_budget", CommitMode.LOW_LATENCY);
        config.set(TidemarkConfig.TSO_MAX_WRITE_SET, "1000");
        config.set(TidemarkConfig.TSO_MAX_FRAME_BYTES, Integer.toString(FRAME));
        config.set(TidemarkConfig.TSO_MAX_BUFFERED_FRAME_BYTES, Integer.toString(4 * FRAME));
        List<TsoTestClient> attackers = new ArrayList<>();
        try (TsoServer server = TestTso.start(config);
             TsoTestClient honest = TsoTestClient.connected(server.port())) {
            for (int i = 0; i < 20; i++) {
                TsoTestClient attacker = TsoTestClient.connected(server.port());
                attackers.add(attacker);
                attacker.sendRaw(partialFrame(FRAME, FRAME - 4096));
            }
            ErrorReply oldest = assertInstanceOf(ErrorReply.class, attackers.get(0).receive());
            assertEquals(ErrorCode.OVERLOADED, oldest.code(), oldest.text());
            assertTrue(oldest.text().contains(TidemarkConfig.TSO_MAX_BUFFERED_FRAME_BYTES.key()), oldest.text());
            assertTrue(attackers.get(0).closedByServer());
            assertFalse(attackers.get(19).closedByServerWithin(200), "the youngest partial frame is kept");
            assertTrue(server.metrics().counter(TsoMetrics.FRAME_BUDGET_CLOSED).getCount() >= 15);
            long held = (Long) server.metrics().getGauges().get(TsoMetrics.BUFFERED_FRAME_BYTES).getValue();
            assertTrue(held <= 4 * FRAME, "partial frames hold " + held + " bytes");

            long start = honest.begin();
            assertInstanceOf(CommittedReply.class, honest.commit(start, 1), "an honest client commits meanwhile");
            TsoStatus status = server.status();
            assertNull(status.lastError(), "a client's partial frames are not the TSO's error");
        } finally {
            for (TsoTestClient attacker : attackers) {
                attacker.close();
            }
        }
    }

    /** The first {@code sent} bytes of a COMMIT frame of {@code length} body bytes. */
    private static byte[] partialFrame(int length, int sent) {
        ByteBuffer frame = ByteBuffer.allocate(sent);
        frame.putInt(length).put(MessageType.COMMIT.code());
        return frame.array();
    }
}
