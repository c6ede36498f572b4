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

    /** The TSO timestamp at or below {@code ts}. */
    public static long tsoPart(long ts) {
        return ts & ~LOW_MASK;
    }
}
