package io.tidemark.tso;

import io.tidemark.config.HostAndPort;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommittedReply;
import io.tidemark.protocol.MessageType;
import io.tidemark.tso.monitoring.TsoHttpEndpoint;
import io.tidemark.tso.monitoring.TsoStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.tidemark.tso.HttpScrape.sample;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 33, finding 2: partial frames ran the TSO out of direct memory, and the allocation failures, which clients
 * caused, became the TSO's own last error on /health. Here the frame budget is set far above the process's direct
 * memory (a TSO in a process of its own, with little of it), so the clients' frames do run it out: the connections
 * they failed on are closed and counted, and /health does not blame the TSO.
 */
@Timeout(120)
class AllocationFailureTest {

    private static final int FRAME = 8 << 20;
    /**
     * Attackers whose half frames the TSO no longer reads wait in their send until the frame timeout closes their
     * connections: 3 s instead of the default 10 is still far longer than sending the frames that run the memory out.
     */
    private static final int FRAME_TIMEOUT_MS = 3_000;

    @Test
    void anAllocationFailureAClientCausedClosesItsConnectionAndIsNotTheTsosError() throws Exception {
        Path log = Files.createTempFile("short-of-memory-tso", ".log");
        List<TsoTestClient> attackers = new ArrayList<>();
        try (ChildTso tso = ChildTso.start("true", List.of("-XX:MaxDirectMemorySize=48m"), log,
                TidemarkConfig.TSO_MAX_WRITE_SET + "=1000", TidemarkConfig.TSO_MAX_FRAME_BYTES + "=" + FRAME,
                TidemarkConfig.TSO_MAX_BUFFERED_FRAME_BYTES + "=" + Integer.MAX_VALUE,
                TidemarkConfig.TSO_FRAME_TIMEOUT_MS + "=" + FRAME_TIMEOUT_MS)) {
            byte[] partial = ByteBuffer.allocate(FRAME / 2).putInt(FRAME).put(MessageType.COMMIT.code()).array();
            for (int i = 0; i < 40; i++) {
                try {
                    TsoTestClient attacker = TsoTestClient.connected(tso.port());
                    attackers.add(attacker);
                    attacker.sendRaw(partial);
                } catch (IOException closedForWantOfMemory) {
                    // What this test provokes.
                }
            }
            HostAndPort http = new HostAndPort("127.0.0.1", tso.httpPort());
            assertTrue(sample(HttpScrape.samples(HttpScrape.get(http, TsoHttpEndpoint.METRICS_PATH).body()),
                    "tso_connections_allocation_failures") >= 1, "the direct memory did run out");
            for (TsoTestClient attacker : attackers) {
                attacker.close();
            }
            try (TsoTestClient honest = TsoTestClient.connected(tso.port())) {
                assertInstanceOf(CommittedReply.class, honest.commit(honest.begin(), 1), "the TSO serves");
            }
            TsoStatus status = TsoStatus.fromJson(HttpScrape.get(http, TsoHttpEndpoint.HEALTH_PATH).body());
            assertNull(status.lastError(), "a client's allocation failure is not the TSO's error");
        } finally {
            for (TsoTestClient attacker : attackers) {
                attacker.close();
            }
            Files.deleteIfExists(log);
        }
    }
}
