package io.tidemark.committable;

import java.io.IOException;

/**
 * The commit table was created with other salt buckets than this process is configured with (or records none): its
 * row keys would differ from those of the table's other users, so no decision (commit record or invalidation
 * marker) is written through it, and a TSO so configured is not built. The message names the setting to change.
 */
public final class CommitTableMismatchException extends IOException {

    private static final long serialVersionUID = 1L;

    public CommitTableMismatchException(String message) {
        super(message);
    }
}
