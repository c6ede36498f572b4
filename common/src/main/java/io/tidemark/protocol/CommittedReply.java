package io.tidemark.protocol;

/**
 * The transaction passed conflict detection and has this commit timestamp. In low-latency mode the client must still
 * write its commit record; in batched mode the record is already durable.
 */
public final class CommittedReply implements Message {

    private final long requestId;
    private final long startTimestamp;
    private final long commitTimestamp;

    public CommittedReply(long requestId, long startTimestamp, long commitTimestamp) {
        this.requestId = requestId;
        this.startTimestamp = startTimestamp;
        this.commitTimestamp = commitTimestamp;
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

    @Override
    public MessageType type() {
        return MessageType.COMMITTED;
    }

    @Override
    public String toString() {
        return "Committed{id=" + requestId + ", start=" + startTimestamp + ", commit=" + commitTimestamp + '}';
    }
}
