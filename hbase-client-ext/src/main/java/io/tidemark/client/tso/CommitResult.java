package io.tidemark.client.tso;

import io.tidemark.certificate.Seal;
import io.tidemark.committable.CommitRecord;
import org.apache.hadoop.hbase.client.Durability;
import io.tidemark.protocol.AbortReason;
import org.jspecify.annotations.Nullable;

/**
 * The TSO's answer to a COMMIT: a commit timestamp with the TSO's certificate of it and the token that lets the
 * committer remove its commit record after the post-commit (docs/security.md), or an abort with its reason.
 */
public final class CommitResult {

    private final long commitTimestamp;
    private final @Nullable AbortReason abortReason;
    private final @Nullable Seal certificate;
    private final @Nullable Seal releaseToken;

    private CommitResult(long commitTimestamp, @Nullable AbortReason abortReason, @Nullable Seal certificate,
            @Nullable Seal releaseToken) {
        this.commitTimestamp = commitTimestamp;
        this.abortReason = abortReason;
        this.certificate = certificate;
        this.releaseToken = releaseToken;
    }

    /** A commit the TSO sealed with {@code certificate} and {@code releaseToken}. */
    public static CommitResult committed(long commitTimestamp, Seal certificate, Seal releaseToken) {
        return new CommitResult(commitTimestamp, null, certificate, releaseToken);
    }

    public static CommitResult aborted(AbortReason reason) {
        return new CommitResult(0, reason, null, null);
    }

    /**
     * The commit record of the transaction that started at {@code start}, as the TSO decided it: sealed with its
     * certificate and release token.
     */
    public CommitRecord recordOf(long start, Durability durability) {
        return new CommitRecord(start, commitTimestamp(), durability, certificate, releaseToken);
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
    public @Nullable AbortReason abortReason() {
        return abortReason;
    }

    @Override
    public String toString() {
        return isCommitted() ? "COMMITTED@" + commitTimestamp : "ABORTED(" + abortReason + ")";
    }
}
