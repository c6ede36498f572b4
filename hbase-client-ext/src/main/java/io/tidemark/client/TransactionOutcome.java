package io.tidemark.client;

/**
 * What became of a transaction, as {@link TransactionManager#outcome(long)} settles it. Final: once settled, a
 * transaction's outcome never changes.
 */
public final class TransactionOutcome {

    /** The three things the commit table and the stored cells can prove about a transaction. */
    public enum Status {
        /** It committed at {@link #commitTimestamp()}: its writes are visible to every transaction begun after that. */
        COMMITTED,
        /** It never committed, and now never will: none of its writes is, or will ever be, visible. */
        ABORTED,
        /**
         * Nothing is left to tell: it started at or below the low watermark, has no commit record, and none of its
         * cells is stored any more. Either it aborted, or it committed and every version it wrote was overwritten by
         * later commits and removed by compaction. Either way none of its writes is visible to any transaction that
         * can still commit. It can never commit from now on.
         */
        COLLECTED
    }

    private final long startTimestamp;
    private final Status status;
    private final long commitTimestamp;

    private TransactionOutcome(long startTimestamp, Status status, long commitTimestamp) {
        this.startTimestamp = startTimestamp;
        this.status = status;
        this.commitTimestamp = commitTimestamp;
    }

    static TransactionOutcome committed(long startTimestamp, long commitTimestamp) {
        return new TransactionOutcome(startTimestamp, Status.COMMITTED, commitTimestamp);
    }

    static TransactionOutcome aborted(long startTimestamp) {
        return new TransactionOutcome(startTimestamp, Status.ABORTED, 0);
    }

    static TransactionOutcome collected(long startTimestamp) {
        return new TransactionOutcome(startTimestamp, Status.COLLECTED, 0);
    }

    public long startTimestamp() {
        return startTimestamp;
    }

    public Status status() {
        return status;
    }

    public boolean isCommitted() {
        return status == Status.COMMITTED;
    }

    /** The commit timestamp; only for {@link Status#COMMITTED}. */
    public long commitTimestamp() {
        if (status != Status.COMMITTED) {
            throw new IllegalStateException("transaction " + startTimestamp + " has no commit timestamp: it is "
                    + status);
        }
        return commitTimestamp;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof TransactionOutcome)) {
            return false;
        }
        TransactionOutcome other = (TransactionOutcome) o;
        return startTimestamp == other.startTimestamp && status == other.status
                && commitTimestamp == other.commitTimestamp;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(startTimestamp) * 31 + status.hashCode() * 17 + Long.hashCode(commitTimestamp);
    }

    @Override
    public String toString() {
        return "transaction " + startTimestamp + " " + status
                + (status == Status.COMMITTED ? " at " + commitTimestamp : "");
    }
}
