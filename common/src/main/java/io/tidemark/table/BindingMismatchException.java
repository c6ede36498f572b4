package io.tidemark.table;

import org.apache.hadoop.hbase.DoNotRetryIOException;

/**
 * A request to a transactional table claimed what the region server knows otherwise from the table's binding and the
 * cluster's timestamp table: another commit mode, a TSO epoch no TSO of the cluster recorded, a timestamp above every
 * one handed out, or the like (docs/security.md, "Region servers"). Nothing was read or written on its behalf. A
 * rightly configured client never gets it; HBase re-creates it on the client by class name, and does not retry it.
 */
public class BindingMismatchException extends DoNotRetryIOException {

    private static final long serialVersionUID = 1L;

    /** HBase re-creates remote exceptions through this constructor. */
    public BindingMismatchException(String message) {
        super(message);
    }
}
