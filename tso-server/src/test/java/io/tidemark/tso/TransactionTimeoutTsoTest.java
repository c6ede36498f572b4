package io.tidemark.tso;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.AbortReason;
import io.tidemark.protocol.AbortedReply;
import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.CommittedReply;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The transaction timeout, over a real socket: old transactions are refused and the low watermark passes them. */
class TransactionTimeoutTsoTest {

    private static final long TIMEOUT_MS = 400;

    private static TsoServer server;

    @BeforeAll
    static void startServer() throws IOException {
        TidemarkConfig config = TestTso.config("timeout", CommitMode.LOW_LATENCY);
        config.set(TidemarkConfig.TSO_TRANSACTION_TIMEOUT_MS, Long.toString(TIMEOUT_MS));
        server = TestTso.start(config);
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    @Test
    void aTransactionOlderThanTheTimeoutIsRefusedAndTheLowWatermarkPassesIt() throws Exception {
        try (TsoTestClient client = TsoTestClient.connected(server.port())) {
            long old = client.begin();
            long young = client.begin();
            assertInstanceOf(CommittedReply.class, client.commit(young, 7001));

            Thread.sleep(TIMEOUT_MS * 2);
            client.begin();
            AbortedReply refused = assertInstanceOf(AbortedReply.class, client.commit(old, 7002));

            assertEquals(AbortReason.TIMED_OUT, refused.reason());
            long lowWatermark = (Long) server.metrics().getGauges().get(TsoMetrics.LOW_WATERMARK).getValue();
            assertTrue(lowWatermark >= old, "low watermark " + lowWatermark + " is below " + old);
            long fresh = client.begin();
            assertInstanceOf(CommittedReply.class, client.commit(fresh, 7002), "a young transaction still commits");
        }
    }
}
