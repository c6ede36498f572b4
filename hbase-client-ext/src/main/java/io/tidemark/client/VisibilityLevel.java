package io.tidemark.client;

/**
 * Which of its own writes a transaction's reads see (docs/api.md, "Checkpoints"). Writes of other transactions are
 * seen the same way at every level: those committed before the transaction's start.
 */
public enum VisibilityLevel {

    /** Every write of the transaction so far, in all its checkpoints. The default. */
    SNAPSHOT,

    /**
     * The transaction's writes up to its previous {@link Transaction#checkpoint()}, not those of the current
     * checkpoint: a statement that reads and writes one table (an {@code UPSERT SELECT}) never reads its own output.
     * Before the first checkpoint, none of the transaction's writes.
     */
    SNAPSHOT_EXCLUDE_CURRENT
}
