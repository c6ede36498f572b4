package io.tidemark.visibility;

import io.tidemark.committable.CommitState;
import io.tidemark.committable.CommitTable;
import org.jspecify.annotations.Nullable;

import java.io.IOException;

/**
 * Invalidating a writer that looks pending, and what that settled; the one definition for readers
 * ({@link WriterResolver}) and for the client's outcome of a transaction nobody tracks. The writer is invalidated in
 * the commit table, decided by content: if its commit record won the race, it committed. Otherwise the invalidation
 * stands, unless the writer had committed and finished its post-commit (shadow cells written, record deleted) before
 * the invalidation landed in the empty row: a shadow cell, looked for only now that the invalidation landed, proves
 * that, and the invalidation is undone (only a marker is ever removed). A shadow cell that appears later cannot: once
 * the marker stands, the writer's commit record can no longer be written.
 */
public final class WriterInvalidation {

    /** Looks for a shadow cell of the writer, after its invalidation landed. */
    @FunctionalInterface
    public interface ShadowCellSearch {
        /** The commit timestamp a shadow cell of the writer holds, or null when none is stored. */
        @Nullable Long commitTimestamp() throws IOException;
    }

    private static final WriterInvalidation STANDS = new WriterInvalidation(false, 0);

    private final boolean committedByRecord;
    private final long commitTimestamp;

    private WriterInvalidation(boolean committedByRecord, long commitTimestamp) {
        this.committedByRecord = committedByRecord;
        this.commitTimestamp = commitTimestamp;
    }

    /**
     * Invalidates {@code writer}, undoing it when {@code shadowCells} then finds that the writer had committed.
     *
     * @param writer the writer's start timestamp
     */
    public static WriterInvalidation invalidate(CommitTable commitTable, long writer, ShadowCellSearch shadowCells)
            throws IOException {
        CommitState state = commitTable.invalidate(writer);
        if (state.isCommitted()) {
            return new WriterInvalidation(true, state.commitTimestamp());
        }
        Long shadow = shadowCells.commitTimestamp();
        if (shadow != null) {
            commitTable.undoInvalidation(writer);
            return new WriterInvalidation(false, shadow);
        }
        return STANDS;
    }

    /** Whether the writer committed after all: its commit record won the race, or a shadow cell proved it. */
    public boolean isCommitted() {
        return commitTimestamp != 0;
    }

    /**
     * Whether the commit record won the race (the writer may not have written its shadow cells yet), rather than a
     * shadow cell proving the commit.
     */
    public boolean isCommittedByRecord() {
        return committedByRecord;
    }

    /** The writer's commit timestamp; only meaningful when {@link #isCommitted()}. */
    public long commitTimestamp() {
        if (!isCommitted()) {
            throw new IllegalStateException("the writer's invalidation stands: it never committed");
        }
        return commitTimestamp;
    }
}
