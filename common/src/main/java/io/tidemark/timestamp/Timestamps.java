package io.tidemark.timestamp;

/**
 * Layout of a Tidemark timestamp (see docs/architecture.md, "Timestamps").
 *
 * <p>A timestamp is a positive 64-bit number. The TSO only hands out multiples of {@link #TSO_STEP}: the
 * {@link #LOW_BITS} low bits stay zero, leaving room for versions minted later between two consecutive TSO
 * timestamps without ever colliding with a TSO timestamp. The low bits of a version {@code T + low} say who wrote it:
 * <ul>
 *   <li>{@code low = 0}: the generic transaction that started at {@code T}, before its first checkpoint;</li>
 *   <li>{@code low} in 1..{@link #MAX_FAST_PATH_LOW}: a fast-path write, its own writer (start = commit =
 * version);</li>
 *   <li>{@code low = MAX_FAST_PATH_LOW + k}, k in 1..{@link #MAX_CHECKPOINTS}: checkpoint k of the generic
 *       transaction that started at {@code T}.</li>
 * </ul>
 * The ranges never overlap, so a version alone names its writer ({@link #writerOf}).
 */
public final class Timestamps {

    /** Number of low bits left free between consecutive TSO timestamps. */
    public static final int LOW_BITS = 12;

    /** Distance between two consecutive TSO timestamps. */
    public static final long TSO_STEP = 1L << LOW_BITS;

    /** Mask of the low bits. */
    public static final long LOW_MASK = TSO_STEP - 1;

    /** Largest low bits of a fast-path version: fast-path versions use low bits 1 to 3840. */
    public static final long MAX_FAST_PATH_LOW = 3840;

    /** Checkpoints one transaction may take; checkpoint k writes at low bits {@code MAX_FAST_PATH_LOW + k}. */
    public static final int MAX_CHECKPOINTS = (int) (LOW_MASK - MAX_FAST_PATH_LOW);

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

    /** Whether {@code version} is in the range the fast path mints in (low bits 1 to {@link #MAX_FAST_PATH_LOW}). */
    public static boolean isFastPathVersion(long version) {
        long low = version & LOW_MASK;
        return low != 0 && low <= MAX_FAST_PATH_LOW;
    }

    /** Whether {@code version} is the version of a checkpoint 1 to {@link #MAX_CHECKPOINTS} of a transaction. */
    public static boolean isCheckpointVersion(long version) {
        return (version & LOW_MASK) > MAX_FAST_PATH_LOW;
    }

    /**
     * The start timestamp of the writer of {@code version}: the transaction whose start or checkpoint version it is,
     * or, for a fast-path version, the version itself (a fast-path write starts and commits at its version).
     */
    public static long writerOf(long version) {
        return isFastPathVersion(version) ? version : tsoPart(version);
    }

    /**
     * The version at which the transaction that started at {@code start} writes in checkpoint {@code checkpoint}:
     * the start itself for checkpoint 0.
     */
    public static long checkpointVersion(long start, int checkpoint) {
        if (!isTsoTimestamp(start)) {
            throw new IllegalArgumentException("a transaction's start must be a TSO timestamp (a positive multiple of "
                    + TSO_STEP + "), was " + start);
        }
        if (checkpoint < 0 || checkpoint > MAX_CHECKPOINTS) {
            throw new IllegalArgumentException("checkpoint must be from 0 to " + MAX_CHECKPOINTS + ", was "
                    + checkpoint);
        }
        return checkpoint == 0 ? start : start + MAX_FAST_PATH_LOW + checkpoint;
    }

    /**
     * Checks the timestamps of a reader's snapshot: a positive start timestamp, the epoch of the TSO incarnation that
     * handed it out below it (0 when unknown), and the newest of the reader's own versions it sees, from
     * {@code startTimestamp - 1} (none) to {@code startTimestamp + LOW_MASK} (all).
     *
     * @throws IllegalArgumentException naming the value out of range
     */
    public static void checkSnapshot(long startTimestamp, long epoch, long ownVersionsUpTo) {
        if (startTimestamp <= 0) {
            throw new IllegalArgumentException("start timestamp must be positive, was " + startTimestamp);
        }
        if (epoch < 0 || epoch >= startTimestamp) {
            throw new IllegalArgumentException("epoch must be from 0 to below the start timestamp " + startTimestamp
                    + ", was " + epoch);
        }
        if (ownVersionsUpTo < startTimestamp - 1 || ownVersionsUpTo > startTimestamp + LOW_MASK) {
            throw new IllegalArgumentException("own versions up to must be from " + (startTimestamp - 1) + " to "
                    + (startTimestamp + LOW_MASK) + ", was " + ownVersionsUpTo);
        }
    }
}
