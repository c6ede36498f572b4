package io.tidemark.bench.txn;

/**
 * How one benchmark transaction went and where its time went: begin (BEGIN at the TSO), the data operations, and
 * commit (COMMIT at the TSO, the commit record, post-commit). Raw HBase has no begin or commit, so those are 0.
 */
public record TxOutcome(boolean committed, long beginNanos, long operationsNanos, long commitNanos) {

    public long totalNanos() {
        return beginNanos + operationsNanos + commitNanos;
    }
}
