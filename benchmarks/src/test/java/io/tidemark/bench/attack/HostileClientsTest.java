package io.tidemark.bench.attack;

import io.tidemark.client.tso.NettyTsoClient;
import io.tidemark.config.HostAndPort;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.tso.TsoMetrics;
import io.tidemark.tso.TsoServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
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
 * Issues 11 and 33: each attack of {@code ./tidemark bench attacks}, short and against a TSO with small limits, while a
 * normal client commits. The TSO must stay up, the normal client must keep committing without an error or an abort,
 * and the attack must meet the limit that answers it. Behaviour only: the benchmark measures the timings.
 */
@Timeout(300)
// Alone: its limits are timeouts of a second or less, which another class's load on the same cores would blur.
@Isolated
class HostileClientsTest {

    private static final int MAX_CONNECTIONS = 12;
    /**
     * Big enough that the attacks' writes take seconds to turn the map over: then only transactions open that long
     * may find their ids forgotten, and the normal client's are open 20 ms (longer when the machine is loaded).
     */
    private static final int CONFLICT_MAP_ENTRIES = 1 << 20;

    private TsoServer tso;
    private Target target;
    private NormalClient normal;

    @BeforeEach
    void start() throws Exception {
        tso = InMemoryTso.start(InMemoryTso.config(Map.of(
                TidemarkConfig.TSO_MAX_CONNECTIONS.key(), Integer.toString(MAX_CONNECTIONS),
                TidemarkConfig.TSO_HANDSHAKE_TIMEOUT_MS.key(), "400",
                TidemarkConfig.TSO_IDLE_TIMEOUT_MS.key(), "1500",
                TidemarkConfig.TSO_FRAME_TIMEOUT_MS.key(), "1000",
                TidemarkConfig.TSO_MAX_PENDING_REPLY_BYTES.key(), "65536",
                TidemarkConfig.TSO_REPLY_STALL_TIMEOUT_MS.key(), "1000",
                TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES.key(), Integer.toString(CONFLICT_MAP_ENTRIES))));
        target = Target.plaintext(new InetSocketAddress("127.0.0.1", tso.port()),
                new InetSocketAddress("127.0.0.1", tso.httpAddress().port()));
        normal = new NormalClient(target.tso(), null);
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
        IdleConnections attack = new IdleConnections(MAX_CONNECTIONS + 10, 1);
        attack.run(target, Duration.ofSeconds(1));

        assertEquals(MAX_CONNECTIONS - 1, attack.held(), "the normal client holds one of the connections");
        assertEquals(11, attack.refused());
        assertEquals(Map.of("ERROR OVERLOADED", 11), attack.refusals());
        assertEquals(11, tso.metrics().counter(TsoMetrics.REFUSED_CONNECTIONS).getCount());
        assertNormalClientKeptCommittingAndTsoServes();
    }

    @Test
    void slowlorisConnectionsAreClosedByTheHandshakeTimeout() throws Exception {
        Slowloris attack = new Slowloris(8, Duration.ofMillis(100));
        attack.run(target, Duration.ofSeconds(2));

        assertTrue(attack.closedByTso() >= 8, attack.outcome());
        assertTrue(tso.metrics().counter(TsoMetrics.HANDSHAKE_TIMEOUTS).getCount() >= 8);
        assertNormalClientKeptCommittingAndTsoServes();
    }

    @Test
    void partialHugeFramesBeforeHelloAreRefusedFromTheirLength() throws Exception {
        PartialFrames attack = new PartialFrames(8, 2, 16 * 1024 * 1024, false);
        attack.run(target, Duration.ofSeconds(1));

        assertTrue(attack.refused() >= 8, attack.outcome());
        assertEquals(0, attack.held(), attack.outcome());
        assertNormalClientKeptCommittingAndTsoServes();
    }

    @Test
    void partialFramesAfterHelloDoNotKeepTheirConnectionAlive() throws Exception {
        PartialFrames attack = new PartialFrames(4, 2, 0, true);
        attack.run(target, Duration.ofSeconds(3));

        assertTrue(attack.held() >= 4, attack.outcome());
        assertTrue(tso.metrics().counter(TsoMetrics.FRAME_TIMEOUTS).getCount() >= 4,
                "a frame not complete within the frame timeout closes its connection");
        assertNormalClientKeptCommittingAndTsoServes();
    }

    @Test
    void aClientThatNeverReadsItsRepliesIsStoppedThenClosed() throws Exception {
        UnreadReplies attack = new UnreadReplies(50_000_000);
        attack.run(target, Duration.ofSeconds(30));

        assertTrue(attack.closedByTso(), attack.outcome());
        assertTrue(tso.metrics().counter(TsoMetrics.READ_PAUSES).getCount() >= 1);
        assertEquals(1, tso.metrics().counter(TsoMetrics.REPLY_STALLS).getCount());
        assertNormalClientKeptCommittingAndTsoServes();
    }

    @Test
    void commitsAimedAtOneBucketAbortNobody() throws Exception {
        LowWatermarkPush attack = new LowWatermarkPush(CONFLICT_MAP_ENTRIES);
        attack.run(target, Duration.ofSeconds(2));

        assertTrue(attack.outcome().contains(" 0 aborted"), attack.outcome());
        assertEquals(0L, tso.metrics().getGauges().get(TsoMetrics.LOW_WATERMARK).getValue());
        assertNormalClientKeptCommittingAndTsoServes();
    }

    @Test
    void halfSentHttpRequestsDoNotBlindTheHealthCheck() throws Exception {
        HttpSlowloris attack = new HttpSlowloris(20);
        Thread attacking = new Thread(() -> {
            try {
                attack.run(target, Duration.ofSeconds(3));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        attacking.start();
        TimeUnit.MILLISECONDS.sleep(500);
        try (Probes probes = new Probes(target)) {
            probes.startWindow();
            TimeUnit.SECONDS.sleep(1);
            Probes.Window probed = probes.endWindow();
            assertTrue(probed.healthChecks() > 0);
            assertEquals(0, probed.healthFailures(), "/health answered while half requests were held");
        }
        attacking.join();
        assertNormalClientKeptCommittingAndTsoServes();
    }

    @Test
    void aBeginFloodAndMaximumSizeCommitsDoNotStopTheNormalClient() throws Exception {
        new BeginFlood(4).run(target, Duration.ofSeconds(2));
        MaxSizeCommits commits = new MaxSizeCommits();
        commits.run(target, Duration.ofSeconds(2));

        assertTrue(commits.outcome().matches("[1-9][0-9]* commits of .*"), commits.outcome());
        assertNormalClientKeptCommittingAndTsoServes();
    }

    private void assertNormalClientKeptCommittingAndTsoServes() throws IOException, InterruptedException {
        NormalClient.Window window = normal.endWindow(Duration.ZERO);
        assertEquals(0, window.errors(), "the normal client failed: " + window.firstError());
        assertEquals(0, window.aborts(), "the normal client aborted: " + window.firstAbort());
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
