package io.tidemark.fastpath;

import org.apache.hadoop.hbase.DoNotRetryIOException;

/**
 * A fast-path write arrived after a later operation of its stream had already run on the row: it is an old attempt
 * that its client gave up on (or the stream's {@code FastPathTable} is used by several threads at once, which it does
 * not support). Nothing was executed.
 */
public class StaleFastPathOperationException extends DoNotRetryIOException {

    private static final long serialVersionUID = 1L;

    /** HBase re-creates remote exceptions through this constructor. */
    public StaleFastPathOperationException(String message) {
        super(message);
    }
}
