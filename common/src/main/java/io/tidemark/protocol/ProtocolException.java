package io.tidemark.protocol;

/** A violation of the wire protocol, carrying the error code to send back before closing the connection. */
public final class ProtocolException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final ErrorCode errorCode;

    public ProtocolException(ErrorCode errorCode, String message) {
        super(message);
        this.errorCode = errorCode;
    }

    public ErrorCode errorCode() {
        return errorCode;
    }
}
