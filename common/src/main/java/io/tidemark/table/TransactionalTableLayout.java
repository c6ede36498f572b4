package io.tidemark.table;

import io.tidemark.config.TidemarkConfig;

/**
 * The names by which HBase table descriptors say "this table is transactional" (docs/coprocessors.md). Defined once
 * here so the admin API, the client's table check and the coprocessors cannot disagree.
 */
public final class TransactionalTableLayout {

    /**
     * Column-family metadata key marking a family as transactional (value {@value #TRANSACTIONAL_FAMILY_VALUE}).
     * Compaction garbage collection only touches marked families; other families of the same table keep plain
     * HBase semantics.
     */
    public static final String TRANSACTIONAL_FAMILY_KEY = "tidemark.transactional";
    public static final String TRANSACTIONAL_FAMILY_VALUE = "true";

    /**
     * Table metadata key binding a table to the commit table its transactions are recorded in (the value is that
     * table's name). The commit-table sweeper and {@code TransactionManager.outcome} of another commit table leave a
     * bound table alone, and clients of another commit table refuse it, so several Tidemark installations can share
     * one HBase cluster. A table without the key belongs to whichever installation uses it.
     */
    public static final String COMMIT_TABLE_KEY = TidemarkConfig.COMMIT_TABLE;

    /**
     * Table metadata key recording when a table that already held data became transactional: the value is the
     * conversion timestamp T0 in decimal, a TSO timestamp taken by {@code ./tidemark table enable} after it checked
     * that every stored cell is older. A data cell or tombstone below T0 without a shadow cell was written outside
     * transactions before the conversion and counts as committed at its own timestamp (docs/operations.md,
     * "Converting a table that holds data"). Absent (or 0) on tables that were transactional from the start.
     */
    public static final String CONVERTED_AT_KEY = "tidemark.converted-at";

    /**
     * Table metadata key present while a bulk load runs ({@code TidemarkAdmin.beginLoad}, docs/api.md "Bulk loads"):
     * the value is the load's commit timestamp L in decimal, the timestamp of a fence raised after the key was set,
     * or 0 in the moment between setting the key and taking that fence. While it is present the region servers
     * refuse every transactional read and write of the table ({@link TableLoadingException}); loaded cells carry
     * version L and a shadow cell committing them at L. Absent when no load runs.
     */
    public static final String LOADING_AT_KEY = "tidemark.loading-at";

    /** Applies a transaction's snapshot inside the region server for gets and scans. */
    public static final String SNAPSHOT_OBSERVER = "io.tidemark.coprocessor.snapshot.SnapshotObserver";

    /** Drops versions no snapshot can read any more when HBase compacts transactional families. */
    public static final String COMPACTION_OBSERVER = "io.tidemark.coprocessor.compaction.CompactionObserver";

    /** Runs single-row transactions inside the region server and keeps the region's read clock (fast path). */
    public static final String FAST_PATH_OBSERVER = "io.tidemark.coprocessor.fastpath.FastPathObserver";

    /**
     * Refuses transactional reads and writes while the table is being bulk loaded and lets only that load's writes
     * through ({@value #LOADING_AT_KEY}); attached by the first load of a table and left in place afterwards.
     */
    public static final String LOAD_GUARD_OBSERVER = "io.tidemark.coprocessor.load.LoadGuardObserver";

    /**
     * Coprocessor priority: after system coprocessors (such as access control), so those see the request first.
     */
    public static final int COPROCESSOR_PRIORITY = 0x20000000;

    /**
     * Priority of the fast-path observer: it must run before the snapshot observer, because the snapshot observer
     * answers a Get itself and bypasses the rest of the chain, and every generic read must first raise the fast-path
     * read clock (a lower number runs earlier).
     */
    public static final int FAST_PATH_PRIORITY = COPROCESSOR_PRIORITY - 1;

    /**
     * Priority of the load guard: before the fast-path and snapshot observers, both of which answer some Gets
     * themselves and skip the rest of the chain, so that the guard sees every read.
     */
    public static final int LOAD_GUARD_PRIORITY = FAST_PATH_PRIORITY - 1;

    private TransactionalTableLayout() {
    }

    public static boolean isTransactionalFamilyValue(String value) {
        return TRANSACTIONAL_FAMILY_VALUE.equalsIgnoreCase(value);
    }
}
