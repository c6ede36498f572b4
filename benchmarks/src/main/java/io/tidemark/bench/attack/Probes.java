package io.tidemark.bench.attack;

import io.tidemark.protocol.HelloReply;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * What a supervisor and a new client see while an attack runs: every {@value #HEALTH_INTERVAL_MS} ms a GET /health on
 * a fresh connection, as a load balancer polls it (its time from connecting to the last byte of the answer; no
 * answer within {@value #TIMEOUT_MS} ms is a failure), and every {@value #NEWCOMER_INTERVAL_MS} ms a new client
 * connection that says HELLO (refused: ERROR or closed). From 127.0.0.1, the normal client's address. One thread;
 * windows like the normal client's.
 */
final class Probes implements AutoCloseable {

    static final long HEALTH_INTERVAL_MS = 100;
    static final long NEWCOMER_INTERVAL_MS = 500;
    static final int TIMEOUT_MS = 5000;
    private static final byte[] GET_HEALTH = "GET /health HTTP/1.0\r\nHost: tso\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII);

    private final Target target;
    private final Thread thread;
    private volatile boolean running = true;
    private long healthChecks;
    private long healthFailures;
    private long healthMaxNanos;
    private long newcomers;
    private long newcomersRefused;

    Probes(Target target) {
        this.target = target;
        this.thread = new Thread(this::loop, "attack-probes");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private void loop() {
        long nextNewcomer = System.nanoTime();
        while (running) {
            long started = System.nanoTime();
            boolean answered = health();
            record(answered, System.nanoTime() - started);
            if (System.nanoTime() >= nextNewcomer) {
                newcomer(newcomerAdmitted());
                nextNewcomer = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(NEWCOMER_INTERVAL_MS);
            }
            try {
                TimeUnit.MILLISECONDS.sleep(HEALTH_INTERVAL_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private boolean health() {
        try (Socket socket = new Socket()) {
            socket.connect(target.http(), TIMEOUT_MS);
            socket.setSoTimeout(TIMEOUT_MS);
            socket.getOutputStream().write(GET_HEALTH);
            InputStream in = socket.getInputStream();
            String head = new String(in.readNBytes(12), StandardCharsets.US_ASCII);
            while (in.read() >= 0) {
                // The body, up to the close.
            }
            return head.startsWith("HTTP/1.1 200") || head.startsWith("HTTP/1.0 200");
        } catch (IOException e) {
            return false;
        }
    }

    private boolean newcomerAdmitted() {
        InetSocketAddress tso = target.tso();
        try (RawConnection connection = new RawConnection(tso, "127.0.0.1", target.authenticated(), TIMEOUT_MS)) {
            connection.write(RawConnection.hello());
            return connection.readMessage() instanceof HelloReply;
        } catch (IOException e) {
            return false;
        }
    }

    private synchronized void record(boolean answered, long nanos) {
        healthChecks++;
        if (!answered) {
            healthFailures++;
        }
        healthMaxNanos = Math.max(healthMaxNanos, nanos);
    }

    private synchronized void newcomer(boolean admitted) {
        newcomers++;
        if (!admitted) {
            newcomersRefused++;
        }
    }

    /** Starts a new window. */
    synchronized void startWindow() {
        healthChecks = 0;
        healthFailures = 0;
        healthMaxNanos = 0;
        newcomers = 0;
        newcomersRefused = 0;
    }

    /** What the probes saw since {@link #startWindow()}. */
    synchronized Window endWindow() {
        return new Window(healthChecks, healthFailures, healthMaxNanos / 1e6, newcomers, newcomersRefused);
    }

    /** The probes of one window. */
    record Window(long healthChecks, long healthFailures, double healthMaxMs, long newcomers, long newcomersRefused) {
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join(10_000);
    }
}
