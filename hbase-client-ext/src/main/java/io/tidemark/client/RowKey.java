package io.tidemark.client;

import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Row;

import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

/** A row of a table, with value equality, as {@link InFlightOperations} orders a transaction's operations by. */
final class RowKey {
    private final TableName table;
    private final byte[] row;

    RowKey(TableName table, byte[] row) {
        this.table = table;
        this.row = row;
    }

    /** The distinct rows {@code rows} touch in {@code table}, in order. */
    static Set<RowKey> of(TableName table, Collection<? extends Row> rows) {
        Set<RowKey> keys = new LinkedHashSet<>();
        for (Row r : rows) {
            keys.add(new RowKey(table, r.getRow()));
        }
        return keys;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RowKey && ((RowKey) o).table.equals(table) && Arrays.equals(((RowKey) o).row, row);
    }

    @Override
    public int hashCode() {
        return 31 * table.hashCode() + Arrays.hashCode(row);
    }
}
