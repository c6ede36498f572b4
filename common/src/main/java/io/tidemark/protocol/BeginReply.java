package io.tidemark.protocol;

/** A start timestamp for the BEGIN with the same request id. */
public final class BeginReply implements Message {

    private final long requestId;
    private final long startTimestamp;

    public BeginReply(long requestId, long startTimestamp) {
        this.requestId = requestId;
        this.startTimestamp = startTimestamp;
    }

    public long requestId() {
        return requestId;
    }

    public long startTimestamp() {
        return startTimestamp;
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
