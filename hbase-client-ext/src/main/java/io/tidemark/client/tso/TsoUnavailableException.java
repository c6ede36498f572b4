package io.tidemark.client.tso;

import io.tidemark.protocol.ErrorCode;
import org.jspecify.annotations.Nullable;

import java.io.IOException;

/** The TSO could not be reached, did not answer in time, or refused the request with an ERROR. */
public class TsoUnavailableException extends IOException {

    private static final long serialVersionUID = 1L;

    private final @Nullable ErrorCode serverErrorCode;

    public TsoUnavailableException(@Nullable String message) {
        this(message, (Throwable) null);
    }

    public TsoUnavailableException(@Nullable String message, @Nullable Throwable cause) {
        super(message, cause);
        this.serverErrorCode = null;
    }

    /** The TSO answered with an ERROR message carrying {@code serverErrorCode}. */
    public TsoUnavailableException(String message, ErrorCode serverErrorCode) {
        super(message);
        this.serverErrorCode = serverErrorCode;
    }

    /** The code of the TSO's ERROR message, or null when the failure did not come from the TSO itself. */
    public @Nullable ErrorCode serverErrorCode() {
        return serverErrorCode;
    }
}
