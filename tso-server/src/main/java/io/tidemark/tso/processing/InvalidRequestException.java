package io.tidemark.tso.processing;

import io.tidemark.protocol.ErrorCode;

/** A well-formed frame carrying a request the TSO refuses; the client gets an ERROR naming the request id. */
public final class InvalidRequestException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final long requestId;
    private final ErrorCode errorCode;

    public InvalidRequestException(long requestId, ErrorCode errorCode, String message) {
        super(message);
        this.requestId = requestId;
        this.errorCode = errorCode;
    }

    public long requestId() {
        return requestId;
    }

    public ErrorCode errorCode() {
        return errorCode;
    }
}
