package io.tidemark.visibility;

/**
 * Told what a reader did to other transactions' data while deciding their outcomes, for the reader's metrics (the
 * client counts them per {@code TransactionManager}). Called on the reading thread; implementations must be cheap and
 * must not throw.
 */
public interface ReaderEffects {

    /** Tells nothing to no one. */
    ReaderEffects NONE = new ReaderEffects() {
    };

    /** The reader invalidated the pending writer {@code writer}: that transaction can never commit now. */
    default void invalidatedPendingWriter(long writer) {
    }

    /** The reader wrote the missing shadow cell of a version of {@code writer}, found committed in the commit table. */
    default void healedShadowCell(long writer) {
    }
}
