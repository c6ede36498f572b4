package io.tidemark.client;

/** Where a transaction is in its life. Only {@link #RUNNING} transactions can read, write, commit or roll back. */
public enum TransactionState {
    /** Begun; reads and writes are allowed. */
    RUNNING,
    /** Committed: its writes are visible to transactions that begin later. */
    COMMITTED,
    /** Rolled back or aborted: its writes are never visible. */
    ROLLED_BACK,
    /**
     * The commit failed in a way that left its outcome undecided here (neither the TSO nor the commit table could be
     * reached). The commit table decides it; readers settle it the same way as for a client that died.
     */
    OUTCOME_UNKNOWN
}
