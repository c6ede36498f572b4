package io.tidemark.bench.attack;

import java.util.concurrent.TimeUnit;

/** Small helpers of the attacks. */
final class Attacks {

    private Attacks() {
    }

    /**
     * The {@code i}-th of {@code count} loopback addresses an attack connects from, 127.0.{@code block}.1 onwards: on
     * loopback every 127.x.y.z is this machine, so one attacker can pose as many clients (as it could on a network
     * it controls), which the TSO's limits per address must not be the only defence against.
     */
    static String source(int block, int i, int count) {
        int n = i % count;
        return "127.0." + (block + n / 250) + "." + (1 + n % 250);
    }

    /** Sleeps until {@code deadlineNanos} ({@link System#nanoTime()} scale), if it is still ahead. */
    static void sleepUntil(long deadlineNanos) throws InterruptedException {
        long left = deadlineNanos - System.nanoTime();
        if (left > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }
}
