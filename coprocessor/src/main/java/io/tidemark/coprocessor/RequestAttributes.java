package io.tidemark.coprocessor;

import io.tidemark.fastpath.FastPathProtocol;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.client.OperationWithAttributes;

/** Reading the attributes every step may look at, with one answer to a malformed one. */
public final class RequestAttributes {

    private RequestAttributes() {
    }

    /**
     * The start timestamp a request of a generic transaction carries ({@value FastPathProtocol#TRANSACTION_START}),
     * or {@link Timestamps#NONE} when it carries none.
     *
     * @throws DoNotRetryIOException when the attribute is not 8 bytes
     */
    public static long transactionStart(OperationWithAttributes op) throws DoNotRetryIOException {
        try {
            return FastPathProtocol.longAttribute(op, FastPathProtocol.TRANSACTION_START, Timestamps.NONE);
        } catch (IllegalArgumentException e) {
            throw new DoNotRetryIOException(e.getMessage(), e);
        }
    }
}
