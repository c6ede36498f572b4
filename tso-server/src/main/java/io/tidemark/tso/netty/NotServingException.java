package io.tidemark.tso.netty;

import io.tidemark.protocol.ErrorCode;

/** A HELLO reached a TSO that does not serve (standby or stopped): an expected refusal, not a protocol error. */
final class NotServingException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final ErrorCode errorCode;

    NotServingException(ErrorCode errorCode, String message) {
        super(message);
        this.errorCode = errorCode;
    }

    ErrorCode errorCode() {
        return errorCode;
    }
}
