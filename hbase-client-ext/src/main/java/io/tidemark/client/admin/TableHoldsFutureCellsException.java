package io.tidemark.client.admin;

import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableName;

/**
 * {@code ./tidemark table enable} refused a table that stores a cell at or above the conversion timestamp: written
 * outside transactions with a timestamp of its own (HBase's wall clock is far below TSO timestamps), such a cell would
 * sort among transactional versions and could neither count as written before the conversion nor be resolved as a
 * transaction's. Nothing was changed.
 */
public class TableHoldsFutureCellsException extends DoNotRetryIOException {

    private static final long serialVersionUID = 1L;

    public TableHoldsFutureCellsException(TableName table, String row, long timestamp, long convertedAt) {
        super("table " + table.getNameAsString() + " cannot be converted: row '" + row + "' stores a cell at"
                + " timestamp " + timestamp + ", not below the conversion timestamp " + convertedAt + " (cells written"
                + " outside transactions must be older than the conversion). Rewrite or delete the cells written with"
                + " timestamps from the future, or major-compact the table if they were deleted, then enable it again;"
                + " nothing was changed");
    }
}
