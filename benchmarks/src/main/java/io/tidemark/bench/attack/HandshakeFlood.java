package io.tidemark.bench.attack;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * TLS handshakes without a client certificate, as fast as {@value #THREADS} threads can start them (issue 33, finding
 * 6): the TSO does its key exchange and signs before it can tell the client has no certificate, and this work ran on
 * the event loop, taking a normal client's p50 to about 9 ms. It now runs on a thread of its own, and one address may
 * open only so many connections a second.
 */
public final class HandshakeFlood implements Attack {

    private static final String SOURCE = "127.0.0.11";
    private static final int THREADS = 8;

    private final AtomicLong attempts = new AtomicLong();
    private final AtomicLong completed = new AtomicLong();
    private volatile String failure;

    @Override
    public String name() {
        return "TLS handshake flood without a certificate (" + THREADS + " threads)";
    }

    @Override
    public void run(Target target, Duration duration) throws InterruptedException {
        if (target.anonymous() == null) {
            failure = "needs a TSO with TLS";
            return;
        }
        long deadline = System.nanoTime() + duration.toNanos();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            Thread thread = new Thread(() -> {
                while (System.nanoTime() < deadline) {
                    attempts.incrementAndGet();
                    try (RawConnection connection = new RawConnection(target.tso(), SOURCE, target.anonymous(),
                            2000)) {
                        completed.incrementAndGet();
                    } catch (IOException e) {
                        // Refused at accept, or the handshake failed: try again at once.
                    }
                }
            }, "handshake-flood-" + t);
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
    }

    @Override
    public String outcome() {
        return failure != null ? failure : attempts.get() + " handshakes started, " + completed.get()
                + " completed on the attacker's side (the TSO refuses the missing certificate after its own part)";
    }
}
