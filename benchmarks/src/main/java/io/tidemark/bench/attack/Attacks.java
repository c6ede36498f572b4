package io.tidemark.bench.attack;

import java.util.concurrent.TimeUnit;

/** Small helpers of the attacks. */
final class Attacks {

    private Attacks() {
    }

    /** Sleeps until {@code deadlineNanos} ({@link System#nanoTime()} scale), if it is still ahead. */
    static void sleepUntil(long deadlineNanos) throws InterruptedException {
        long left = deadlineNanos - System.nanoTime();
        if (left > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }
}
