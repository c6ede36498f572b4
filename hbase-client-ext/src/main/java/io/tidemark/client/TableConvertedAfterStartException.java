package io.tidemark.client;

import org.apache.hadoop.hbase.TableName;

import java.io.IOException;

/**
 * A transaction tried to write a table that became transactional ({@code ./tidemark table enable}) after the
 * transaction began: its snapshot predates the conversion, so it could overwrite data it never saw, and the fence the
 * conversion raised would abort its commit anyway. Nothing was written; the transaction may go on with other tables.
 * Retry the work in a new transaction.
 */
public class TableConvertedAfterStartException extends IOException {

    private static final long serialVersionUID = 1L;

    private final long convertedAt;

    public TableConvertedAfterStartException(TableName table, long startTimestamp, long convertedAt) {
        super("transaction " + startTimestamp + " may not write table " + table.getNameAsString() + ": the table"
                + " became transactional at " + convertedAt + ", after the transaction began; retry in a new"
                + " transaction");
        this.convertedAt = convertedAt;
    }

    /** The table's conversion timestamp. */
    public long convertedAt() {
        return convertedAt;
    }
}
