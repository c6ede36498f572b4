package io.tidemark.tso.timestamp;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The timestamp bound kept in memory, with the same compare-and-set contract as {@link HBaseTimestampStorage}: for
 * tests and single-process use, where the bound need not outlive the process.
 */
public final class InMemoryTimestampStorage implements TimestampStorage {

    private final AtomicLong bound = new AtomicLong();
    private final AtomicLong epoch = new AtomicLong();

    @Override
    public long readBound() {
        return bound.get();
    }

    @Override
    public synchronized void advanceBound(long expected, long newBound, long epoch)
            throws TimestampBoundLostException {
        if (newBound <= expected) {
            throw new IllegalArgumentException("the timestamp bound only grows: " + expected + " -> " + newBound);
        }
        if (!bound.compareAndSet(expected, newBound)) {
            throw new TimestampBoundLostException(expected, newBound);
        }
        this.epoch.set(epoch);
    }

    @Override
    public long readEpoch() {
        return epoch.get();
    }
}
