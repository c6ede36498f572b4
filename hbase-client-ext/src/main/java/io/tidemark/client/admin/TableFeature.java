package io.tidemark.client.admin;

import io.tidemark.table.TransactionalTableLayout;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * What region-server support a transactional table gets, each through one coprocessor (docs/coprocessors.md,
 * docs/fast-path.md). A table without any still works: the client then resolves snapshots itself.
 */
public enum TableFeature {

    /** Snapshot reads and filters applied inside the region server ({@code SnapshotObserver}). */
    SERVER_SIDE_SNAPSHOTS(TransactionalTableLayout.SNAPSHOT_OBSERVER, TransactionalTableLayout.COPROCESSOR_PRIORITY),

    /** Old versions no snapshot can read are dropped when HBase compacts ({@code CompactionObserver}). */
    COMPACTION_GC(TransactionalTableLayout.COMPACTION_OBSERVER, TransactionalTableLayout.COPROCESSOR_PRIORITY),

    /** Single-row transactions inside the region server ({@code FastPathObserver}, first in the chain). */
    FAST_PATH(TransactionalTableLayout.FAST_PATH_OBSERVER, TransactionalTableLayout.FAST_PATH_PRIORITY);

    /** What {@code ./tidemark table create} and {@link TidemarkAdmin#create} attach unless told otherwise. */
    public static final Set<TableFeature> DEFAULT =
            Collections.unmodifiableSet(EnumSet.of(SERVER_SIDE_SNAPSHOTS, COMPACTION_GC));

    private final String coprocessor;
    private final int priority;

    TableFeature(String coprocessor, int priority) {
        this.coprocessor = coprocessor;
        this.priority = priority;
    }

    /** Class name of the region observer that provides the feature. */
    public String coprocessor() {
        return coprocessor;
    }

    /** Its place in the coprocessor chain (a lower number runs earlier). */
    public int priority() {
        return priority;
    }
}
