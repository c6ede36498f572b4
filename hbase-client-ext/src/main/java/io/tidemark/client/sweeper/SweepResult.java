package io.tidemark.client.sweeper;

/** What one or more sweep passes did. */
public final class SweepResult {

    static final SweepResult EMPTY = new SweepResult(0, 0, 0, 0, 0, 0);

    private final int completed;
    private final int rolledBack;
    private final int wrongMarkersUndone;
    private final int undecided;
    private final long shadowCellsWritten;
    private final long tentativeCellsRemoved;

    SweepResult(int completed, int rolledBack, int wrongMarkersUndone, int undecided, long shadowCellsWritten,
            long tentativeCellsRemoved) {
        this.completed = completed;
        this.rolledBack = rolledBack;
        this.wrongMarkersUndone = wrongMarkersUndone;
        this.undecided = undecided;
        this.shadowCellsWritten = shadowCellsWritten;
        this.tentativeCellsRemoved = tentativeCellsRemoved;
    }

    /** Committed transactions whose post-commit was finished and whose record was deleted. */
    public int completed() {
        return completed;
    }

    /** Invalidated transactions, proven never to commit, whose tentative cells and marker were removed. */
    public int rolledBack() {
        return rolledBack;
    }

    /**
     * Invalidation markers of writers that had committed (their shadow cells were found): a reader invalidated them
     * after their post-commit and died before undoing it. The markers were undone and the data kept.
     */
    public int wrongMarkersUndone() {
        return wrongMarkersUndone;
    }

    /**
     * Old invalidation markers left in place because their writer started above the low watermark: the TSO would
     * still accept its COMMIT, so only the marker keeps it from committing. A later pass takes them once the low
     * watermark has passed them.
     */
    public int undecided() {
        return undecided;
    }

    public long shadowCellsWritten() {
        return shadowCellsWritten;
    }

    public long tentativeCellsRemoved() {
        return tentativeCellsRemoved;
    }

    SweepResult plus(SweepResult other) {
        return new SweepResult(completed + other.completed, rolledBack + other.rolledBack,
                wrongMarkersUndone + other.wrongMarkersUndone, undecided + other.undecided,
                shadowCellsWritten + other.shadowCellsWritten, tentativeCellsRemoved + other.tentativeCellsRemoved);
    }

    @Override
    public String toString() {
        return "swept: " + completed + " committed records completed (" + shadowCellsWritten + " shadow cells), "
                + rolledBack + " invalidated records rolled back (" + tentativeCellsRemoved + " tentative cells), "
                + wrongMarkersUndone + " wrong invalidations undone, " + undecided
                + " invalidated records left for a later pass (writer above the low watermark)";
    }
}
