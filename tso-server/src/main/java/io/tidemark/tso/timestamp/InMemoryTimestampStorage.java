package io.tidemark.tso.timestamp;

import io.tidemark.certificate.DecisionKey;
import org.jspecify.annotations.Nullable;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The timestamp bound kept in memory, with the same compare-and-set contract as {@link HBaseTimestampStorage}: for
 * tests and single-process use, where the bound need not outlive the process.
 */
public final class InMemoryTimestampStorage implements TimestampStorage {

    private final AtomicLong bound = new AtomicLong();
    private final AtomicLong epoch = new AtomicLong();
    private final Map<Long, DecisionKey> decisionKeys = new HashMap<>();

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

    @Override
    public synchronized void recordDecisionKey(DecisionKey key) {
        decisionKeys.put(key.epoch(), key);
    }

    /** The recorded keys, as a region server would find them. */
    public synchronized @Nullable DecisionKey decisionKey(long epoch) {
        return decisionKeys.get(epoch);
    }
}
