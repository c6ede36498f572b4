package io.tidemark.bench.txn;

/**
 * How one benchmark transaction went and where its time went: begin (BEGIN at the TSO), the data operations, and
 * commit (COMMIT at the TSO, the commit record, post-commit), the last also split into its {@link CommitPhases}. Raw
 * HBase has no begin or commit, so those are 0.
 */
public record TxOutcome(boolean committed, long beginNanos, long operationsNanos, long commitNanos,
                        CommitPhases commitPhases) {

    public TxOutcome {
        if (commitPhases == null) {
            throw new IllegalArgumentException("commit phases are required; use CommitPhases.NONE");
        }
    }

    /** An outcome whose commit, if any, is not split into phases. */
    public TxOutcome(boolean committed, long beginNanos, long operationsNanos, long commitNanos) {
        this(committed, beginNanos, operationsNanos, commitNanos, CommitPhases.NONE);
    }

    public long totalNanos() {
        return beginNanos + operationsNanos + commitNanos;
    }
}
