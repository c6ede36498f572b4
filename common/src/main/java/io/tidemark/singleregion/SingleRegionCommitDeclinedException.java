package io.tidemark.singleregion;

import org.apache.hadoop.hbase.DoNotRetryIOException;

/**
 * The region did not commit the transaction and never will under this request's idempotency key: a written row had a
 * write committed after the snapshot or a writer nobody has decided yet, the rows are no longer in one region (a
 * split or a merge), or the client settled the attempt. The region recorded the refusal before answering, so a
 * re-sent attempt of the same request gets the same answer. The client commits the transaction the generic way
 * (through the TSO), which decides the conflict cell by cell as it always did.
 */
public class SingleRegionCommitDeclinedException extends DoNotRetryIOException {

    private static final long serialVersionUID = 1L;

    /** HBase re-creates remote exceptions through this constructor. */
    public SingleRegionCommitDeclinedException(String message) {
        super(message);
    }
}
