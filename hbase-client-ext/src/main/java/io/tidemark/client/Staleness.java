package io.tidemark.client;

import java.time.Duration;

/**
 * How old a read-only transaction's snapshot may be ({@link TransactionManager#beginReadOnly(Staleness)}).
 *
 * <p>{@link #none()} asks the TSO for a new start timestamp, as {@link TransactionManager#begin()} does.
 * {@link #atMost(Duration)} lets the client reuse a snapshot timestamp it already knows to be safe, with no round trip,
 * as long as that timestamp was obtained no longer ago than the bound. Either way the transaction sees a consistent
 * snapshot; the bound only limits how far behind real time it may be (docs/api.md, "Read-only transactions").
 */
public final class Staleness {

    private static final Staleness NONE = new Staleness(0);

    private final long maxNanos;

    private Staleness(long maxNanos) {
        this.maxNanos = maxNanos;
    }

    /** A fresh snapshot from the TSO. */
    public static Staleness none() {
        return NONE;
    }

    /**
     * A snapshot that may miss transactions that committed during the last {@code bound}.
     *
     * @throws IllegalArgumentException when {@code bound} is negative
     */
    public static Staleness atMost(Duration bound) {
        if (bound.isNegative()) {
            throw new IllegalArgumentException("a staleness bound is zero or positive, was " + bound);
        }
        return bound.isZero() ? NONE : new Staleness(bound.toNanos());
    }

    /** Whether a fresh TSO timestamp is required. */
    public boolean isNone() {
        return maxNanos == 0;
    }

    /** The bound in nanoseconds; 0 for {@link #none()}. */
    long maxNanos() {
        return maxNanos;
    }

    @Override
    public String toString() {
        return isNone() ? "Staleness.none()" : "Staleness.atMost(" + Duration.ofNanos(maxNanos) + ")";
    }
}
