package io.tidemark.tso.netty;

import io.tidemark.protocol.ErrorCode;

/**
 * An ERROR the TSO sends on purpose, then closes the connection: HELLO at a TSO that does not serve (standby or
 * stopped), or a connection past one of its limits. Not a protocol error; where it is decided, it is counted and logged
 * as that decision needs, so the error handler does neither again.
 */
final class Refusal extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final ErrorCode errorCode;

    Refusal(ErrorCode errorCode, String message) {
        super(message);
        this.errorCode = errorCode;
    }

    ErrorCode errorCode() {
        return errorCode;
    }
}
