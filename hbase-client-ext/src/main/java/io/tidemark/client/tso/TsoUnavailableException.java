package io.tidemark.client.tso;

import java.io.IOException;

/** The TSO could not be reached, did not answer in time, or refused the request with an ERROR. */
public class TsoUnavailableException extends IOException {

    private static final long serialVersionUID = 1L;

    public TsoUnavailableException(String message) {
        super(message);
    }

    public TsoUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
