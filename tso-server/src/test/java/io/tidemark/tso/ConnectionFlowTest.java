package io.tidemark.tso;

import io.tidemark.committable.InMemoryCommitTable;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.BeginReply;
import io.tidemark.protocol.BeginRequest;
import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.CommittedReply;
import io.tidemark.protocol.Message;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Per-connection limits after HELLO: idle connections are closed, waiting ones are not, requests in flight are capped. */
class ConnectionFlowTest {

    @Test
    void anIdleConnectionIsClosedAndTheClientWasToldWhen() throws IOException {
        TidemarkConfig config = TestTso.config("idle", CommitMode.LOW_LATENCY);
        config.set(TidemarkConfig.TSO_IDLE_TIMEOUT_MS, "300");
        try (TsoServer server = TestTso.start(config);
             TsoTestClient client = TsoTestClient.connect(server.port())) {
            assertEquals(300, client.hello().idleTimeoutMs());
            client.begin();
            assertTrue(client.closedByServer(), "closed after 300 ms without a request");
            assertEquals(1, server.metrics().counter(TsoMetrics.IDLE_CLOSED).getCount());
        }
    }

    @Test
    void aConnectionWaitingForTheTsoIsNotIdleAndRequestsBeyondTheLimitWaitUnread() throws IOException {
        TidemarkConfig config = TestTso.config("in_flight", CommitMode.BATCHED);
        config.set(TidemarkConfig.TSO_IDLE_TIMEOUT_MS, "200");
        config.set(TidemarkConfig.TSO_MAX_REQUESTS_IN_FLIGHT, "4");
        config.set(TidemarkConfig.TSO_BATCH_FLUSH_TIMEOUT_MS, "1");
        TestTso.Cluster cluster = new TestTso.Cluster();
        try (TsoServer server = cluster.start(config);
             TsoTestClient client = TsoTestClient.connected(server.port())) {
            long start = client.begin();
            // The batch fails long enough (retries after 50, 100, 200, 400 ms) to outlast the idle timeout.
            cluster.commitTable.failNext(4, InMemoryCommitTable.Fault.UNAVAILABLE);
            client.send(client.commitRequest(start, 1));
            Set<Long> begins = new HashSet<>();
            for (int i = 0; i < 20; i++) {
                long id = client.nextRequestId();
                begins.add(id);
                // Every BEGIN waits for the failing batch: the TSO stops reading at 4 requests in flight.
                client.send(new BeginRequest(id));
            }
            assertInstanceOf(CommittedReply.class, client.receive(), "the commit comes first, once durable");
            for (int i = 0; i < 20; i++) {
                Message reply = client.receive();
                assertTrue(begins.remove(assertInstanceOf(BeginReply.class, reply).requestId()));
            }
            assertTrue(begins.isEmpty(), "every request held back was answered");
            assertTrue(server.metrics().counter(TsoMetrics.READ_PAUSES).getCount() >= 1,
                    "the TSO stopped reading at the in-flight limit");
            assertEquals(0, server.metrics().counter(TsoMetrics.IDLE_CLOSED).getCount(),
                    "waiting for a reply is not idleness");
            assertFalse(client.closedByServerWithin(50));
        }
    }
}
