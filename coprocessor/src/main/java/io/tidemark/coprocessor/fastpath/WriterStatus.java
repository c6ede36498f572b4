package io.tidemark.coprocessor.fastpath;

import io.tidemark.committable.CommitState;
import io.tidemark.committable.CommitTable;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Resolves the writers of tentative cells (generic transactions' cells without a shadow cell) during one fast-path
 * operation, asking the commit table at most once per writer. Unlike a generic reader it never invalidates a
 * writer: the fast path only reads the latest committed state, so an undecided writer is simply reported as
 * {@link #PENDING} and the operation decides (a read skips it, a write aborts).
 */
final class WriterStatus {

    /** The writer did not and never will commit (invalidated or rolled back). */
    static final long NOT_COMMITTED = -1;
    /** No decision is known yet: the writer may still commit. */
    static final long PENDING = -2;

    /** Re-reads the shadow cell of the column being resolved, or returns null when it has none. */
    interface ShadowCellReader {
        Long read(long version) throws IOException;
    }

    private final CommitTable commitTable;
    private final Map<Long, Long> resolved = new HashMap<>();

    WriterStatus(CommitTable commitTable) {
        this.commitTable = commitTable;
    }

    /** The commit timestamp of the writer that started at {@code version}, or NOT_COMMITTED, or PENDING. */
    long resolve(long version, ShadowCellReader shadowCell) throws IOException {
        Long known = resolved.get(version);
        if (known != null) {
            return known;
        }
        long status = lookUp(version, shadowCell);
        resolved.put(version, status);
        return status;
    }

    private long lookUp(long version, ShadowCellReader shadowCell) throws IOException {
        CommitState state = commitTable.lookup(version);
        if (state.isCommitted()) {
            return state.commitTimestamp();
        }
        // The writer may have finished its post-commit (shadow cells, then record deleted) since the row was read.
        Long shadow = shadowCell.read(version);
        if (shadow != null) {
            return shadow;
        }
        return state.isInvalidated() ? NOT_COMMITTED : PENDING;
    }
}
