package io.tidemark.chaos.history;

/**
 * What a client was told about one transaction or fast-path operation.
 *
 * @param timestamp the commit timestamp or fast-path version for {@link Kind#COMMITTED}, else 0
 * @param detail the abort reason or the exception, for reports; empty when there is nothing to say
 */
public record Told(Kind kind, long timestamp, String detail) {

    /** The possible answers. */
    public enum Kind {
        /** Committed at {@link #timestamp()} (a fast-path write: at that version). */
        COMMITTED,
        /** The commit was refused: TransactionAbortedException (reason in the detail). */
        ABORTED,
        /** An operation failed before the commit was asked for; the transaction was rolled back. */
        FAILED,
        /** A fast-path write refused the row (FastPathConflictException): nothing was written. */
        REFUSED,
        /** A fast-path check-and-mutate found another value: nothing was written. */
        NOT_APPLIED,
        /** The client could not learn the outcome (TransactionException, or an exception from a fast-path write). */
        UNKNOWN,
        /** The client was killed before it was told anything. */
        NOTHING;

        /** Whether this answer promises that nothing of the transaction is or will ever be stored. */
        public boolean promisesNothingStored() {
            return this == ABORTED || this == FAILED || this == REFUSED || this == NOT_APPLIED;
        }
    }

    public static final Told NOTHING = new Told(Kind.NOTHING, 0, "");

    public Told {
        if ((kind == Kind.COMMITTED) != (timestamp > 0)) {
            throw new IllegalArgumentException("a commit has a positive timestamp and nothing else has one: " + kind
                    + " at " + timestamp);
        }
    }

    public static Told committed(long timestamp) {
        return new Told(Kind.COMMITTED, timestamp, "");
    }

    public static Told of(Kind kind, String detail) {
        return new Told(kind, 0, detail);
    }

    @Override
    public String toString() {
        switch (kind) {
            case COMMITTED:
                return "committed at " + timestamp;
            case NOTHING:
                return "nothing (the client was killed)";
            default:
                String word = kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
                return detail.isEmpty() ? word : word + " (" + detail + ")";
        }
    }
}
