package io.tidemark.protocol;

import io.tidemark.certificate.Seal;

import java.util.Objects;

/**
 * The transaction passed conflict detection and has this commit timestamp. In low-latency mode the client must still
 * write its commit record, with the certificate (the commit-record guard refuses a record without one); in batched
 * mode the record is already durable. The release token lets the client remove the record after its post-commit
 * (docs/security.md, "Only the TSO's decisions reach the commit table").
 */
public final class CommittedReply implements Message {

    private final long requestId;
    private final long startTimestamp;
    private final long commitTimestamp;
    private final Seal certificate;
    private final Seal releaseToken;

    public CommittedReply(long requestId, long startTimestamp, long commitTimestamp, Seal certificate,
            Seal releaseToken) {
        this.requestId = requestId;
        this.startTimestamp = startTimestamp;
        this.commitTimestamp = commitTimestamp;
        this.certificate = Objects.requireNonNull(certificate, "certificate");
        this.releaseToken = Objects.requireNonNull(releaseToken, "releaseToken");
    }

    public long requestId() {
        return requestId;
    }

    public long startTimestamp() {
        return startTimestamp;
    }

    public long commitTimestamp() {
        return commitTimestamp;
    }

    /** The TSO's certificate of this commit, stored with the commit record. */
    public Seal certificate() {
        return certificate;
    }

    /** The right to remove the commit record after the post-commit. */
    public Seal releaseToken() {
        return releaseToken;
    }

    @Override
    public MessageType type() {
        return MessageType.COMMITTED;
    }

    @Override
    public String toString() {
        return "Committed{id=" + requestId + ", start=" + startTimestamp + ", commit=" + commitTimestamp + '}';
    }
}
