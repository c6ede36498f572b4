package io.tidemark.protocol;

/** A request could not be served; the sender closes the connection after it. Request id 0 means "no request". */
public final class ErrorReply implements Message {

    /** Longest message text sent on the wire, in UTF-8 bytes; longer texts are cut. */
    public static final int MAX_TEXT_BYTES = 1024;

    private final long requestId;
    private final ErrorCode code;
    private final String text;

    public ErrorReply(long requestId, ErrorCode code, String text) {
        this.requestId = requestId;
        this.code = code;
        this.text = text == null ? "" : text;
    }

    public long requestId() {
        return requestId;
    }

    public ErrorCode code() {
        return code;
    }

    public String text() {
        return text;
    }

    @Override
    public MessageType type() {
        return MessageType.ERROR;
    }

    @Override
    public String toString() {
        return "Error{id=" + requestId + ", code=" + code + ", text=" + text + '}';
    }
}
