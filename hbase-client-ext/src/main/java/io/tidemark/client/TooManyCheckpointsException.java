package io.tidemark.client;

import io.tidemark.timestamp.Timestamps;

/**
 * {@link Transaction#checkpoint()} was called more than {@link Timestamps#MAX_CHECKPOINTS} times: every checkpoint
 * writes at its own version between the transaction's start and the next TSO timestamp, and no version is left. The
 * transaction itself is untouched and can still commit or roll back.
 */
public class TooManyCheckpointsException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    TooManyCheckpointsException(long startTimestamp) {
        super("transaction " + startTimestamp + " already took " + Timestamps.MAX_CHECKPOINTS
                + " checkpoints, the most one transaction can: commit it and continue in a new transaction");
    }
}
