package io.tidemark.bench.txn;

/**
 * Where the commit of one transaction with writes went: COMMIT at the TSO, the client's commit record (low-latency
 * mode), and post-commit on the critical path (synchronous: shadow cells and the record's removal; asynchronous: the
 * hand-off to the post-commit threads). All 0 when nothing was committed through the TSO (raw HBase, read-only
 * transactions, the fast path).
 */
public record CommitPhases(long tsoNanos, long commitRecordNanos, long postCommitNanos) {

    public static final CommitPhases NONE = new CommitPhases(0, 0, 0);

    public CommitPhases {
        if (tsoNanos < 0 || commitRecordNanos < 0 || postCommitNanos < 0) {
            throw new IllegalArgumentException("phase times must not be negative, got " + tsoNanos + ", "
                    + commitRecordNanos + ", " + postCommitNanos);
        }
    }
}
