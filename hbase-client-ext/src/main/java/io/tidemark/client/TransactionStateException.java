package io.tidemark.client;

/**
 * A transaction was used when it no longer could be: after it committed or rolled back, or through a
 * {@link TransactionManager} other than the one that began it. A programming error, hence unchecked.
 */
public class TransactionStateException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public TransactionStateException(String message) {
        super(message);
    }
}
