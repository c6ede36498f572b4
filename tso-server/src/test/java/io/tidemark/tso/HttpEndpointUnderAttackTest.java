package io.tidemark.tso;

import io.tidemark.config.HostAndPort;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.tso.monitoring.TsoHttpEndpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 33, finding 4: one half-sent HTTP request blinded /health and /metrics for as long as it was held, because
 * the endpoint read every request on its one thread. Now requests are read without a thread per connection, each must
 * arrive within the request timeout, and connections beyond the endpoint's maximum push out the oldest.
 */
@Timeout(120)
class HttpEndpointUnderAttackTest {

    private static final String HALF_REQUEST = "GET /health HTTP/1.1\r\nHost: tso\r\nX-Slow: ";

    @Test
    void healthIsAnsweredWhileHalfSentRequestsAreHeld() throws IOException {
        TidemarkConfig config = TestTso.config("http_slowloris", CommitMode.LOW_LATENCY);
        // Held far longer than the health check below waits (the scrape's own timeout, 20 s).
        config.set(TidemarkConfig.TSO_HTTP_REQUEST_TIMEOUT_MS, "300000");
        try (TsoServer tso = TestTso.start(config)) {
            List<Socket> held = new ArrayList<>();
            try {
                for (int i = 0; i < 4; i++) {
                    held.add(halfRequest(tso.httpAddress()));
                }
                assertEquals(200, HttpScrape.get(tso.httpAddress(), TsoHttpEndpoint.HEALTH_PATH).statusCode());
                assertEquals(200, HttpScrape.get(tso.httpAddress(), TsoHttpEndpoint.METRICS_PATH).statusCode());
            } finally {
                for (Socket socket : held) {
                    socket.close();
                }
            }
        }
    }

    @Test
    void aRequestNotCompleteWithinTheTimeoutIsClosed() throws IOException {
        TidemarkConfig config = TestTso.config("http_deadline", CommitMode.LOW_LATENCY);
        config.set(TidemarkConfig.TSO_HTTP_REQUEST_TIMEOUT_MS, "300");
        try (TsoServer tso = TestTso.start(config);
             Socket held = halfRequest(tso.httpAddress())) {
            assertTrue(closedByServer(held), "the half request's connection is closed");
            assertEquals(1, tso.metrics().counter(TsoMetrics.HTTP_REQUEST_TIMEOUTS).getCount());
        }
    }

    @Test
    void connectionsBeyondTheMaximumPushOutTheOldest() throws IOException {
        TidemarkConfig config = TestTso.config("http_connections", CommitMode.LOW_LATENCY);
        config.set(TidemarkConfig.TSO_HTTP_REQUEST_TIMEOUT_MS, "300000");
        try (TsoServer tso = TestTso.start(config)) {
            List<Socket> held = new ArrayList<>();
            try {
                for (int i = 0; i < 300; i++) {
                    held.add(halfRequest(tso.httpAddress()));
                }
                assertEquals(200, HttpScrape.get(tso.httpAddress(), TsoHttpEndpoint.HEALTH_PATH).statusCode());
                assertTrue(closedByServer(held.get(0)), "the oldest connection made room");
            } finally {
                for (Socket socket : held) {
                    socket.close();
                }
            }
        }
    }

    private static Socket halfRequest(HostAndPort endpoint) throws IOException {
        Socket socket = new Socket(endpoint.host(), endpoint.port());
        OutputStream out = socket.getOutputStream();
        out.write(HALF_REQUEST.getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return socket;
    }

    private static boolean closedByServer(Socket socket) throws IOException {
        socket.setSoTimeout(20_000);
        InputStream in = socket.getInputStream();
        try {
            while (true) {
                if (in.read() < 0) {
                    return true;
                }
            }
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }
}
