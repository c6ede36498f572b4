package io.tidemark.tso.timestamp;

import java.util.concurrent.atomic.AtomicLong;

/** Timestamp bound kept in memory, with the same compare-and-set contract as the HBase storage. Tests only. */
final class InMemoryTimestampStorage implements TimestampStorage {

    private final AtomicLong bound = new AtomicLong();

    @Override
    public long readBound() {
        return bound.get();
    }

    @Override
    public void advanceBound(long expected, long newBound) throws TimestampBoundLostException {
        if (!bound.compareAndSet(expected, newBound)) {
            throw new TimestampBoundLostException(expected, newBound);
        }
    }
}
