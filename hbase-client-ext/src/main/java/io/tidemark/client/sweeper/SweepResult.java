package io.tidemark.client.sweeper;

/** What one sweep pass did. */
public final class SweepResult {

    private final int completed;
    private final int rolledBack;
    private final long shadowCellsWritten;
    private final long tentativeCellsRemoved;

    SweepResult(int completed, int rolledBack, long shadowCellsWritten, long tentativeCellsRemoved) {
        this.completed = completed;
        this.rolledBack = rolledBack;
        this.shadowCellsWritten = shadowCellsWritten;
        this.tentativeCellsRemoved = tentativeCellsRemoved;
    }

    /** Committed transactions whose post-commit was finished and whose record was deleted. */
    public int completed() {
        return completed;
    }

    /** Invalidated transactions whose tentative cells and marker were removed. */
    public int rolledBack() {
        return rolledBack;
    }

    public long shadowCellsWritten() {
        return shadowCellsWritten;
    }

    public long tentativeCellsRemoved() {
        return tentativeCellsRemoved;
    }

    /** Whether the pass found nothing to do. */
    public boolean isEmpty() {
        return completed == 0 && rolledBack == 0;
    }

    @Override
    public String toString() {
        return "swept: " + completed + " committed records completed (" + shadowCellsWritten + " shadow cells), "
                + rolledBack + " invalidated records rolled back (" + tentativeCellsRemoved + " tentative cells)";
    }
}
