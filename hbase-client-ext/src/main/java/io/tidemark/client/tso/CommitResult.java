package io.tidemark.client.tso;

import io.tidemark.protocol.AbortReason;

/** The TSO's answer to a COMMIT: a commit timestamp, or an abort with its reason. */
public final class CommitResult {

    private final long commitTimestamp;
    private final AbortReason abortReason;

    private CommitResult(long commitTimestamp, AbortReason abortReason) {
        this.commitTimestamp = commitTimestamp;
        this.abortReason = abortReason;
    }

    public static CommitResult committed(long commitTimestamp) {
        return new CommitResult(commitTimestamp, null);
    }

    public static CommitResult aborted(AbortReason reason) {
        return new CommitResult(0, reason);
    }

    public boolean isCommitted() {
        return abortReason == null;
    }

    public long commitTimestamp() {
        if (abortReason != null) {
            throw new IllegalStateException("aborted: " + abortReason);
        }
        return commitTimestamp;
    }

    /** Null when committed. */
    public AbortReason abortReason() {
        return abortReason;
    }

    @Override
    public String toString() {
        return isCommitted() ? "COMMITTED@" + commitTimestamp : "ABORTED(" + abortReason + ")";
    }
}
