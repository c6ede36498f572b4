package io.tidemark.fastpath;

import org.apache.hadoop.hbase.DoNotRetryIOException;

/**
 * A generic transaction's tentative write was refused because the row holds a fast-path write committed after the
 * transaction started (the TSO never sees fast-path writes, so this is where that write-write conflict is caught).
 * The transaction must abort; {@code TTable} rolls it back and reports it aborted.
 */
public class NewerFastPathWriteException extends DoNotRetryIOException {

    private static final long serialVersionUID = 1L;

    /** HBase re-creates remote exceptions through this constructor. */
    public NewerFastPathWriteException(String message) {
        super(message);
    }
}
