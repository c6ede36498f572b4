package io.tidemark.client;

/**
 * Told where the time of each committed transaction with writes went, for benchmarks and diagnostics
 * ({@link TransactionManager.Builder#commitPhaseListener}). Called on the thread that called
 * {@link TransactionManager#commit}, before it returns, so a caller can match the call to its transaction. Commits
 * that abort, or whose outcome had to be settled through the commit table, are not reported. Implementations must be
 * fast and must not throw.
 */
@FunctionalInterface
public interface CommitPhaseListener {

    /** Reports nothing (the default). */
    CommitPhaseListener NONE = (tsoNanos, commitRecordNanos, postCommitNanos) -> { };

    /**
     * @param tsoNanos          COMMIT sent to the TSO until its reply was back on this thread (batched mode: includes
     *                          the TSO's commit-table write)
     * @param commitRecordNanos the client's commit record, including any wait for a group-commit batch
     *                          (low-latency mode; 0 in batched mode)
     * @param postCommitNanos   synchronous post-commit: the shadow cells and the commit record's removal; asynchronous:
     *                          only the hand-off to the post-commit threads
     */
    void committed(long tsoNanos, long commitRecordNanos, long postCommitNanos);

    /**
     * A transaction committed with one request to the region holding every row it wrote (docs/architecture.md,
     * "Single-region commit"), instead of {@link #committed}.
     *
     * @param regionNanos the request, from sending it until its answer was back on this thread (with any retry)
     */
    default void singleRegionCommitted(long regionNanos) {
    }
}
