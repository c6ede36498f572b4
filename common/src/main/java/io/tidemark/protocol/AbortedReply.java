package io.tidemark.protocol;

/** The transaction must abort, for the given reason. */
public final class AbortedReply implements Message {

    private final long requestId;
    private final long startTimestamp;
    private final AbortReason reason;

    public AbortedReply(long requestId, long startTimestamp, AbortReason reason) {
        this.requestId = requestId;
        this.startTimestamp = startTimestamp;
        this.reason = reason;
    }

    public long requestId() {
        return requestId;
    }

    public long startTimestamp() {
        return startTimestamp;
    }

    public AbortReason reason() {
        return reason;
    }

    @Override
    public MessageType type() {
        return MessageType.ABORTED;
    }

    @Override
    public String toString() {
        return "Aborted{id=" + requestId + ", start=" + startTimestamp + ", reason=" + reason + '}';
    }
}
