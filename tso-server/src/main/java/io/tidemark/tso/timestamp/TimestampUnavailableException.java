package io.tidemark.tso.timestamp;

/** The oracle cannot hand out timestamps (bound lost to another TSO, or storage failing); clients get UNAVAILABLE. */
public final class TimestampUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public TimestampUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
