package io.tidemark.tso.netty;

import io.tidemark.protocol.ErrorCode;

/**
 * A connection passed one of the TSO's limits and is closed, with an ERROR saying which; the limit counted and logged
 * it already, so the error handler does neither again.
 */
final class LimitExceededException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final ErrorCode errorCode;

    LimitExceededException(ErrorCode errorCode, String message) {
        super(message);
        this.errorCode = errorCode;
    }

    ErrorCode errorCode() {
        return errorCode;
    }
}
