package io.tidemark.tso.processing;

import java.util.ArrayDeque;
import java.util.function.LongSupplier;

/**
 * Which start timestamps belong to transactions older than the transaction timeout. Timestamps are counters, not
 * clock readings, so BEGINs leave samples (when, latest start timestamp) at most every 1/16 of the timeout; every
 * start timestamp at or below a sample at least one timeout old began at least one timeout ago. A transaction is
 * therefore refused between one timeout and 17/16 of it after it began. Single writer: the TSO's event loop.
 */
final class TransactionTimeout {

    /** Samples per timeout: the precision of the refusal. */
    private static final int SAMPLES_PER_TIMEOUT = 16;

    private final long timeoutNanos;
    private final long sampleIntervalNanos;
    private final LongSupplier nanoClock;
    /** (time, timestamp) pairs, oldest first. */
    private final ArrayDeque<long[]> samples = new ArrayDeque<>();
    private long expiredBound;

    /** @param timeoutMs the timeout, or 0 for none (nothing ever expires) */
    TransactionTimeout(long timeoutMs, LongSupplier nanoClock) {
        this.timeoutNanos = timeoutMs * 1_000_000L;
        this.sampleIntervalNanos = Math.max(1, timeoutNanos / SAMPLES_PER_TIMEOUT);
        this.nanoClock = nanoClock;
    }

    /** Called with every start timestamp handed out. */
    void begun(long startTimestamp) {
        if (timeoutNanos == 0) {
            return;
        }
        long now = nanoClock.getAsLong();
        long[] newest = samples.peekLast();
        if (newest == null || now - newest[0] >= sampleIntervalNanos) {
            samples.addLast(new long[] {now, startTimestamp});
        }
    }

    /** The largest start timestamp known to be at least one timeout old; 0 when none (or no timeout). */
    long expiredBound() {
        if (timeoutNanos == 0) {
            return 0;
        }
        long now = nanoClock.getAsLong();
        while (!samples.isEmpty() && now - samples.peekFirst()[0] >= timeoutNanos) {
            expiredBound = samples.pollFirst()[1];
        }
        return expiredBound;
    }
}
