package io.tidemark.bench.tso;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Sends pairs on a fixed schedule (open loop), round robin over the clients, until the first client is stopped: a
 * slow reply does not hold back the next request. One thread sends every pair that is due, then sleeps a tick; that
 * costs far less CPU than a thread per client waking per pair, which would itself limit the rate it tries to reach.
 */
final class OpenLoopPacer {

    /** A client skips pairs while this many are outstanding (the TSO cannot keep up). */
    private static final long MAX_OUTSTANDING_PER_CLIENT = 10_000;
    /** How often the pacer wakes up to send the pairs that are due. */
    private static final long PACE_TICK_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    private OpenLoopPacer() {
    }

    /** Starts the pacing thread; it ends by itself once the clients are stopped. */
    static Thread start(List<PairLoad> loads, long pairsPerSecond, String threadName) {
        if (pairsPerSecond < 1) {
            throw new IllegalArgumentException("target rate must be at least 1 pair/s, got " + pairsPerSecond);
        }
        Thread pacer = new Thread(() -> pace(loads, pairsPerSecond), threadName);
        pacer.setDaemon(true);
        pacer.start();
        return pacer;
    }

    private static void pace(List<PairLoad> loads, long pairsPerSecond) {
        long started = System.nanoTime();
        long sent = 0;
        int next = 0;
        while (loads.get(0).isRunning()) {
            long due = (System.nanoTime() - started) * pairsPerSecond / TimeUnit.SECONDS.toNanos(1);
            for (; sent < due; sent++) {
                PairLoad load = loads.get(next);
                next = (next + 1) % loads.size();
                if (load.inFlight() < MAX_OUTSTANDING_PER_CLIENT) {
                    load.sendOne();
                }
            }
            LockSupport.parkNanos(PACE_TICK_NANOS);
        }
    }
}
