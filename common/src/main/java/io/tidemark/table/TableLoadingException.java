package io.tidemark.table;

import org.apache.hadoop.hbase.DoNotRetryIOException;

/**
 * A transactional read or write of a table was refused because the table is being bulk loaded
 * ({@value TransactionalTableLayout#LOADING_AT_KEY}): until the load finishes, a snapshot that read the table could
 * see it change when the loaded cells appear. Nothing was read or written; retry once the load has finished. Thrown
 * by the client's table check and by the region servers' load guard; HBase re-creates it on the client by class name.
 */
public class TableLoadingException extends DoNotRetryIOException {

    private static final long serialVersionUID = 1L;

    /** HBase re-creates remote exceptions through this constructor. */
    public TableLoadingException(String message) {
        super(message);
    }

    /** The refusal of {@code what} (a read, a write, ...) of {@code table}. */
    public static TableLoadingException refused(String table, String what) {
        return new TableLoadingException(what + " of table " + table + " refused: the table is being bulk loaded ('"
                + TransactionalTableLayout.LOADING_AT_KEY + "' is set), and transactions may neither read nor"
                + " write it until the load finishes (BulkLoad.finish, or ./tidemark table finish-load " + table
                + " after a crashed load); retry then");
    }
}
