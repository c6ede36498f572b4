package io.tidemark.protocol;

/** Why the TSO, or the commit-record write that follows it, aborted a transaction. */
public enum AbortReason {
    /** Another transaction committed a write to the same cell (or row) after this one started. */
    CONFLICT(1),
    /**
     * The start timestamp is at or below the low watermark: the TSO no longer remembers what it would conflict with.
     */
    BELOW_LOW_WATERMARK(2),
    /** The start timestamp belongs to an earlier TSO epoch (the TSO restarted since the transaction began). */
    STALE_EPOCH(3),
    /** A reader invalidated the transaction before its commit record was written. */
    INVALIDATED(4),
    /** The transaction ran longer than the TSO's transaction timeout ({@code tidemark.tso.transaction-timeout-ms}). */
    TIMED_OUT(5),
    /** A fence on a table the transaction writes was raised after it began (a schema change, for example). */
    FENCED(6);

    private final byte code;

    AbortReason(int code) {
        this.code = (byte) code;
    }

    public byte code() {
        return code;
    }

    public static AbortReason fromCode(byte code) {
        return WireCodes.decode(values(), AbortReason::code, code, "abort reason");
    }
}
