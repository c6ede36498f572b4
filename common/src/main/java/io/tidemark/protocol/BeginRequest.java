package io.tidemark.protocol;

/** Asks for a start timestamp. */
public final class BeginRequest implements Message {

    private final long requestId;

    public BeginRequest(long requestId) {
        this.requestId = requestId;
    }

    public long requestId() {
        return requestId;
    }

    @Override
    public MessageType type() {
        return MessageType.BEGIN;
    }

    @Override
    public String toString() {
        return "Begin{id=" + requestId + '}';
    }
}
