package io.tidemark.fastpath;

import org.apache.hadoop.hbase.DoNotRetryIOException;

/**
 * A fast-path operation did not commit because of another writer of the row: a generic transaction's write that is
 * not resolved yet, or (for a conditional write) a commit since the version the client read. Nothing was written;
 * re-read the row and retry.
 */
public class FastPathConflictException extends DoNotRetryIOException {

    private static final long serialVersionUID = 1L;

    /** HBase re-creates remote exceptions through this constructor. */
    public FastPathConflictException(String message) {
        super(message);
    }
}
