package io.tidemark.client;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.writeset.ConflictLevel;

/**
 * A transaction wrote more cells (or rows, at conflict level row) than the TSO accepts in one commit
 * ({@code tidemark.tso.max-write-set}, announced by the TSO). It was rolled back before its COMMIT was sent: none of
 * its writes will ever be visible. The message says what to do instead.
 */
public final class WriteSetTooLargeException extends TransactionException {

    private static final long serialVersionUID = 1L;

    private final long startTimestamp;
    private final int writeSetSize;
    private final int maxWriteSet;

    public WriteSetTooLargeException(long startTimestamp, int writeSetSize, ConflictLevel level, int maxWriteSet) {
        super("transaction " + startTimestamp + " wrote " + writeSetSize + " distinct "
                + (level == ConflictLevel.ROW ? "rows" : "cells") + ", more than the " + maxWriteSet + " the TSO"
                + " accepts in one commit (" + TidemarkConfig.TSO_MAX_WRITE_SET + "); it was rolled back. Split the"
                + " work into smaller transactions (a bulk load as many transactions of a few thousand rows each)"
                + (level == ConflictLevel.CELL ? ", or run the cluster at conflict level row (one id per written row"
                        + " instead of one per cell)" : "")
                + "; raising the TSO's limit makes every such commit stall all other clients for longer");
        this.startTimestamp = startTimestamp;
        this.writeSetSize = writeSetSize;
        this.maxWriteSet = maxWriteSet;
    }

    public long startTimestamp() {
        return startTimestamp;
    }

    /** Distinct cells (or rows) the transaction wrote. */
    public int writeSetSize() {
        return writeSetSize;
    }

    /** The most the TSO accepts. */
    public int maxWriteSet() {
        return maxWriteSet;
    }
}
