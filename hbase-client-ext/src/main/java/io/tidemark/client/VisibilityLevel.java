package io.tidemark.client;

/**
 * Which of its own writes a transaction's reads see (docs/api.md, "Checkpoints"). Writes of other transactions are
 * seen the same way at every level: those committed before the transaction's start; uncommitted writes of other
 * transactions are never seen.
 */
public enum VisibilityLevel {

    /** Every write of the transaction so far, in all its checkpoints. The default. */
    SNAPSHOT,

    /**
     * The transaction's writes up to its previous {@link Transaction#checkpoint()}, not those of the current
     * checkpoint: a statement that reads and writes one table (an {@code UPSERT SELECT}) never reads its own output.
     * Before the first checkpoint, none of the transaction's writes.
     */
    SNAPSHOT_EXCLUDE_CURRENT,

    /**
     * Every write of the transaction, each version of it: a read returns, per column and newest first, the value each
     * checkpoint wrote (at that checkpoint's version, {@link Transaction#checkpoint()}), then the value of the
     * snapshot, at most as many as the Get's or Scan's {@code readVersions} (1 unless set, which reads as
     * {@link #SNAPSHOT}). A delete the transaction wrote ends the list: nothing older than it is returned. Lets a
     * statement see the values it overwrote (an index maintainer needs the old value to remove its index entry).
     */
    SNAPSHOT_ALL
}
