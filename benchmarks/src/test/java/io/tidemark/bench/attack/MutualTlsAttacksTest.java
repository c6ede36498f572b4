package io.tidemark.bench.attack;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.tso.TsoMetrics;
import io.tidemark.tso.TsoServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 33, findings 5 and 6, with mutual TLS: a client the TSO lets in may not raise fences unless
 * {@code tidemark.tso.fence.allowed-clients} names its certificate's subject, and a flood of TLS handshakes without a
 * certificate does not stop a normal client. Short versions of the attacks of {@code ./tidemark bench attacks}.
 */
@Timeout(300)
// Alone: attacks on a TSO whose normal client must not see an error, which another class's load could cause.
@Isolated
class MutualTlsAttacksTest {

    @TempDir
    static Path certificates;

    private static MutualTls tls;

    @BeforeAll
    static void makeCertificates() throws Exception {
        tls = MutualTls.create(certificates);
    }

    @Test
    void anAuthenticatedClientNotAllowedToFenceRaisesNoFence() throws Exception {
        try (TsoServer tso = InMemoryTso.start(InMemoryTso.config(tls.tsoSettings()));
             NormalClient normal = new NormalClient(new InetSocketAddress("127.0.0.1", tso.port()),
                     tls.normalClient())) {
            normal.awaitFirstCommit(Duration.ofSeconds(30));
            normal.startWindow();
            FenceAttack attack = new FenceAttack();
            attack.run(target(tso), Duration.ofSeconds(2));

            assertTrue(attack.outcome().contains(" 0 fences raised"), attack.outcome());
            assertTrue(tso.metrics().counter(TsoMetrics.NOT_AUTHORIZED_FENCES).getCount() > 0);
            NormalClient.Window window = normal.endWindow(Duration.ZERO);
            assertEquals(0, window.aborts(), "the normal client aborted: " + window.firstAbort());
            assertEquals(0, window.errors(), "the normal client failed: " + window.firstError());
            assertTrue(window.commits() > 0);
        }
    }

    @Test
    void aClientAllowedToFenceFencesTheTable() throws Exception {
        Map<String, String> settings = new HashMap<>(tls.tsoSettings());
        settings.put(TidemarkConfig.TSO_FENCE_ALLOWED_CLIENTS.key(), MutualTls.INTRUDER);
        try (TsoServer tso = InMemoryTso.start(InMemoryTso.config(settings));
             NormalClient normal = new NormalClient(new InetSocketAddress("127.0.0.1", tso.port()),
                     tls.normalClient())) {
            normal.awaitFirstCommit(Duration.ofSeconds(30));
            normal.startWindow();
            FenceAttack attack = new FenceAttack();
            attack.run(target(tso), Duration.ofSeconds(2));

            assertTrue(!attack.outcome().contains(" 0 fences raised"), attack.outcome());
            NormalClient.Window window = normal.endWindow(Duration.ZERO);
            assertTrue(window.aborts() > 0, "the fences aborted the normal client's open transactions");
            assertEquals("FENCED", window.firstAbort());
        }
    }

    @Test
    void aFloodOfHandshakesWithoutACertificateDoesNotStopTheNormalClient() throws Exception {
        Map<String, String> settings = new HashMap<>(tls.tsoSettings());
        settings.put(TidemarkConfig.TSO_CONNECT_RATE_PER_ADDRESS.key(), "10");
        try (TsoServer tso = InMemoryTso.start(InMemoryTso.config(settings));
             NormalClient normal = new NormalClient(new InetSocketAddress("127.0.0.1", tso.port()),
                     tls.normalClient())) {
            normal.awaitFirstCommit(Duration.ofSeconds(30));
            normal.startWindow();
            // On a loaded machine one round may not reach the rate; the assertion is about the limit, not the load.
            for (int round = 0; round < 5 && tso.metrics().counter(TsoMetrics.ADDRESS_LIMITED).getCount() == 0;
                    round++) {
                new HandshakeFlood().run(target(tso), Duration.ofSeconds(2));
            }

            assertTrue(tso.metrics().counter(TsoMetrics.ADDRESS_LIMITED).getCount() > 0,
                    "the flood's address was held to its connections per second");
            NormalClient.Window window = normal.endWindow(Duration.ZERO);
            assertEquals(0, window.errors(), "the normal client failed: " + window.firstError());
            assertTrue(window.commits() > 0);
        }
    }

    private static Target target(TsoServer tso) {
        return new Target(new InetSocketAddress("127.0.0.1", tso.port()),
                new InetSocketAddress("127.0.0.1", tso.httpAddress().port()), tls.intruder(), tls.anonymous());
    }
}
