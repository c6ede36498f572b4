package io.tidemark.committable;

import org.apache.hadoop.hbase.DoNotRetryIOException;

/**
 * The commit table was created with other salt buckets than this process is configured with (or records none): its
 * row keys would differ from those of the table's other users, so no decision (commit record or invalidation
 * marker) is written through it, and a TSO so configured is not built. The message names the setting to change.
 *
 * <p>A {@link DoNotRetryIOException}: a region server refusing a reader's invalidation (server-side snapshot reads)
 * would refuse again, so HBase's client must pass the refusal on at once rather than repeat the read while its
 * retries last.
 */
public final class CommitTableMismatchException extends DoNotRetryIOException {

    private static final long serialVersionUID = 1L;

    public CommitTableMismatchException(String message) {
        super(message);
    }
}
