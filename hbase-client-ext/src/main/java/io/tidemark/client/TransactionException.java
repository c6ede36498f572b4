package io.tidemark.client;

import org.jspecify.annotations.Nullable;

import java.io.IOException;

/** A transaction could not begin or finish; subclasses say why. */
public class TransactionException extends IOException {

    private static final long serialVersionUID = 1L;

    public TransactionException(String message) {
        super(message);
    }

    public TransactionException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }
}
