package io.tidemark.bench.attack;

import io.tidemark.client.tso.NettyTsoClient;
import io.tidemark.config.HostAndPort;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.tso.TsoMetrics;
import io.tidemark.tso.TsoServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 11: each attack of {@code ./tidemark bench attacks}, short and against a TSO with small limits, while a normal
 * client commits. The TSO must stay up, the normal client must keep committing without an error, and the attack must
 * meet the limit that answers it. Behaviour only: the benchmark measures the timings.
 */
// Alone: its limits are timeouts of a second or less, which another class's load on the same cores would blur.
@Isolated
class HostileClientsTest {

    private static final int MAX_CONNECTIONS = 12;

    private TsoServer tso;
    private InetSocketAddress address;
    private NormalClient normal;

    @BeforeEach
    void start() throws Exception {
        tso = InMemoryTso.start(InMemoryTso.config(Map.of(
                TidemarkConfig.TSO_MAX_CONNECTIONS, Integer.toString(MAX_CONNECTIONS),
                TidemarkConfig.TSO_HANDSHAKE_TIMEOUT_MS, "400",
                TidemarkConfig.TSO_IDLE_TIMEOUT_MS, "1500",
                TidemarkConfig.TSO_MAX_PENDING_REPLY_BYTES, "65536",
                TidemarkConfig.TSO_REPLY_STALL_TIMEOUT_MS, "1000",
                TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES, "65536")));
        address = new InetSocketAddress("127.0.0.1", tso.port());
        normal = new NormalClient(address);
        normal.awaitFirstCommit(Duration.ofSeconds(20));
        normal.startWindow();
    }

    @AfterEach
    void stop() {
        normal.close();
        tso.close();
    }

    @Test
    void connectionsBeyondTheLimitAreRefusedAtOnce() throws Exception {
        IdleConnections attack = new IdleConnections(MAX_CONNECTIONS + 10);
        attack.run(address, Duration.ofSeconds(1));

        assertEquals(MAX_CONNECTIONS - 1, attack.held(), "the normal client holds one of the connections");
        assertEquals(11, attack.refused());
        assertEquals(Map.of("ERROR OVERLOADED", 11), attack.refusals());
        assertEquals(11, tso.metrics().counter(TsoMetrics.REFUSED_CONNECTIONS).getCount());
        assertNormalClientKeptCommittingAndTsoServes();
    }

    @Test
    void slowlorisConnectionsAreClosedByTheHandshakeTimeout() throws Exception {
        Slowloris attack = new Slowloris(8, Duration.ofMillis(100));
        attack.run(address, Duration.ofSeconds(2));

        assertTrue(attack.closedByTso() >= 8, attack.outcome());
        assertTrue(tso.metrics().counter(TsoMetrics.HANDSHAKE_TIMEOUTS).getCount() >= 8);
        assertNormalClientKeptCommittingAndTsoServes();
    }

    @Test
    void partialHugeFramesBeforeHelloAreRefusedFromTheirLength() throws Exception {
        PartialFrames attack = new PartialFrames(8, 16 * 1024 * 1024, false);
        attack.run(address, Duration.ofSeconds(1));

        assertTrue(attack.refused() >= 8, attack.outcome());
        assertEquals(0, attack.held(), attack.outcome());
        assertNormalClientKeptCommittingAndTsoServes();
    }

    @Test
    void partialFramesAfterHelloDoNotKeepTheirConnectionAlive() throws Exception {
        PartialFrames attack = new PartialFrames(4, 0, true);
        attack.run(address, Duration.ofSeconds(3));

        assertEquals(4, attack.held(), attack.outcome());
        assertTrue(tso.metrics().counter(TsoMetrics.IDLE_CLOSED).getCount() >= 4,
                "a trickle of a frame is no activity: closed at the idle timeout");
        assertNormalClientKeptCommittingAndTsoServes();
    }

    @Test
    void aClientThatNeverReadsItsRepliesIsStoppedThenClosed() throws Exception {
        UnreadReplies attack = new UnreadReplies(50_000_000);
        attack.run(address, Duration.ofSeconds(30));

        assertTrue(attack.closedByTso(), attack.outcome());
        assertTrue(tso.metrics().counter(TsoMetrics.READ_PAUSES).getCount() >= 1);
        assertEquals(1, tso.metrics().counter(TsoMetrics.REPLY_STALLS).getCount());
        assertNormalClientKeptCommittingAndTsoServes();
    }

    private void assertNormalClientKeptCommittingAndTsoServes() throws IOException, InterruptedException {
        NormalClient.Window window = normal.endWindow(Duration.ZERO);
        assertEquals(0, window.errors(), "the normal client failed: " + window.firstError());
        assertTrue(window.commits() > 0, "the normal client committed during the attack");
        assertTrue(tso.isActive());
        assertFalse(tso.stopped().isDone());
        // A newcomer gets in once the attack let go of its connections.
        TimeUnit.MILLISECONDS.sleep(200);
        try (NettyTsoClient newcomer = NettyTsoClient.builder().address(new HostAndPort("127.0.0.1", tso.port()))
                .build()) {
            assertTrue(newcomer.incarnation().epoch() >= 0);
        }
    }
}
