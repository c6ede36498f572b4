package io.tidemark.protocol;

/**
 * A start timestamp for the BEGIN with the same request id, and the commit token that proves to the TSO that a later
 * COMMIT for it comes from the client that began it.
 */
public final class BeginReply implements Message {

    private final long requestId;
    private final long startTimestamp;
    private final long commitToken;

    public BeginReply(long requestId, long startTimestamp, long commitToken) {
        this.requestId = requestId;
        this.startTimestamp = startTimestamp;
        this.commitToken = commitToken;
    }

    public long requestId() {
        return requestId;
    }

    public long startTimestamp() {
        return startTimestamp;
    }

    /** To be sent back with the transaction's COMMIT; opaque to the client. */
    public long commitToken() {
        return commitToken;
    }

    @Override
    public MessageType type() {
        return MessageType.BEGIN_REPLY;
    }

    @Override
    public String toString() {
        return "BeginReply{id=" + requestId + ", start=" + startTimestamp + '}';
    }
}
