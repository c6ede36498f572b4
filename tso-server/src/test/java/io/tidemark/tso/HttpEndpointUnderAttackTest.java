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
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

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
    void connectionsBeyondTheMaximumPushOutTheOldest() throws IOException, InterruptedException {
        TidemarkConfig config = TestTso.config("http_connections", CommitMode.LOW_LATENCY);
        config.set(TidemarkConfig.TSO_HTTP_REQUEST_TIMEOUT_MS, "300000");
        try (TsoServer tso = TestTso.start(config)) {
            List<Socket> held = new ArrayList<>();
            try {
                for (int i = 0; i < 300; i++) {
                    held.add(halfRequest(tso.httpAddress()));
                }
                assertEquals(200, HttpScrape.get(tso.httpAddress(), TsoHttpEndpoint.HEALTH_PATH).statusCode());
                // The endpoint counts a connection in on the thread that serves it, two threads in all, so "oldest"
                // is the order they were counted in, which may differ a little from the order they connected in.
                int beyond = held.size() + 1 - TsoHttpEndpoint.MAX_CONNECTIONS;
                assertTrue(closedByServerWithin(held.subList(0, beyond + 32), beyond),
                        "the oldest connections made room: at least " + beyond + " of the first " + (beyond + 32));
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

    /** Whether at least {@code count} of {@code sockets} are seen closed by the server within 20 s. */
    private static boolean closedByServerWithin(List<Socket> sockets, int count)
            throws IOException, InterruptedException {
        Set<Socket> closed = new HashSet<>();
        for (int round = 0; round < 200 && closed.size() < count; round++) {
            for (Socket socket : sockets) {
                if (!closed.contains(socket) && closedNow(socket)) {
                    closed.add(socket);
                }
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        return closed.size() >= count;
    }

    private static boolean closedNow(Socket socket) throws IOException {
        socket.setSoTimeout(1);
        try {
            return socket.getInputStream().read() < 0;
        } catch (SocketTimeoutException stillOpen) {
            return false;
        } catch (IOException reset) {
            return true;
        }
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
