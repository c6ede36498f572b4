package io.tidemark.client;

/**
 * Which transaction the operations of a {@link TransactionalTable} belong to: a fixed one ({@link #of}), or the one
 * the calling thread began ({@link PerThreadTransactions}).
 */
@FunctionalInterface
public interface TransactionContext {

    /**
     * The transaction to run an operation in.
     *
     * @throws IllegalStateException when there is none (no transaction was begun on this thread, say)
     */
    Transaction current();

    /** A context that always names {@code tx}. */
    static TransactionContext of(Transaction tx) {
        if (tx == null) {
            throw new NullPointerException("tx");
        }
        return () -> tx;
    }
}
