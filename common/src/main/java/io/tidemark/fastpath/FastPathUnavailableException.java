package io.tidemark.fastpath;

import org.apache.hadoop.hbase.DoNotRetryIOException;

/**
 * The region server cannot mint a fast-path version right now: the room between two TSO timestamps is used up for
 * this row, or the region was just opened and does not know how far generic readers have read. Nothing was written.
 * The client falls back to the generic path: it takes a fresh timestamp from the TSO (a BEGIN) and sends it with the
 * retried operation ({@link FastPathProtocol#FRESH_TIMESTAMP}); {@code FastPathTable} does this automatically.
 */
public class FastPathUnavailableException extends DoNotRetryIOException {

    private static final long serialVersionUID = 1L;

    /** HBase re-creates remote exceptions through this constructor. */
    public FastPathUnavailableException(String message) {
        super(message);
    }
}
