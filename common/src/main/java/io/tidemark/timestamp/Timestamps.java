package io.tidemark.timestamp;

/**
 * Layout of a Tidemark timestamp (see docs/architecture.md, "Timestamps").
 *
 * <p>A timestamp is a positive 64-bit number. The TSO only hands out multiples of {@link #TSO_STEP}: the
 * {@link #LOW_BITS} low bits stay zero, leaving room for versions minted later between two consecutive TSO
 * timestamps (fast-path versions, transaction checkpoints) without ever colliding with a TSO timestamp.
 */
public final class Timestamps {

    /** Number of low bits left free between consecutive TSO timestamps. */
    public static final int LOW_BITS = 12;

    /** Distance between two consecutive TSO timestamps. */
    public static final long TSO_STEP = 1L << LOW_BITS;

    /** Mask of the low bits. */
    public static final long LOW_MASK = TSO_STEP - 1;

    /** No valid timestamp is this value or below it. */
    public static final long NONE = 0L;

    private Timestamps() {
    }

    /** Whether {@code ts} is a timestamp the TSO could have handed out (positive, low bits zero). */
    public static boolean isTsoTimestamp(long ts) {
        return ts > 0 && (ts & LOW_MASK) == 0;
    }

    /**
     * The TSO timestamp a TSO starting at wall-clock time {@code millis} (milliseconds since the epoch) hands out
     * nothing below: {@code millis * TSO_STEP}. HBase stamps cells written outside transactions with the wall clock in
     * milliseconds, so every TSO timestamp sorts above every such cell written before the TSO started, and new
     * transactional versions of a table converted in place sort above the data it already held (docs/architecture.md,
     * "Timestamps").
     *
     * @throws IllegalArgumentException when {@code millis} is negative or so large the product overflows
     */
    public static long wallClockFloor(long millis) {
        if (millis < 0 || millis > Long.MAX_VALUE / TSO_STEP) {
            throw new IllegalArgumentException("wall-clock time must be from 0 to " + Long.MAX_VALUE / TSO_STEP
                    + " ms, was " + millis);
        }
        return millis * TSO_STEP;
    }

    /** The TSO timestamp at or below {@code ts}. */
    public static long tsoPart(long ts) {
        return ts & ~LOW_MASK;
    }
}
