package io.tidemark.client;

import io.tidemark.encoding.CellEncoding;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/**
 * Reads one table as of a transaction's snapshot. For each user column, walks its versions newest first; the first
 * version whose writer is in the snapshot (the transaction itself, or one that committed before the start timestamp)
 * decides: a deleting tombstone means the column is absent, otherwise its data cell is the value.
 */
final class SnapshotReader {

    private final Transaction tx;
    private final Table table;
    private final WriterResolver writers;

    SnapshotReader(Transaction tx, Table table) {
        this.tx = tx;
        this.table = table;
        this.writers = new WriterResolver(tx, tx.manager().commitTable(), table);
    }

    Result get(Get get) throws IOException {
        return answer(get, resolveRow(table.get(SnapshotQueries.snapshotGet(get, tx.startTimestamp()))));
    }

    boolean exists(Get get) throws IOException {
        return !resolveRow(table.get(SnapshotQueries.snapshotGet(get, tx.startTimestamp()))).isEmpty();
    }

    Result[] get(List<Get> gets) throws IOException {
        List<Get> raw = new ArrayList<>(gets.size());
        for (Get g : gets) {
            raw.add(SnapshotQueries.snapshotGet(g, tx.startTimestamp()));
        }
        Result[] rows = table.get(raw);
        Result[] resolved = new Result[rows.length];
        for (int i = 0; i < rows.length; i++) {
            resolved[i] = answer(gets.get(i), resolveRow(rows[i]));
        }
        return resolved;
    }

    /** What HBase answers to the Get: the cells, or only whether there are any ({@code setCheckExistenceOnly}). */
    private static Result answer(Get get, Result visible) {
        return get.isCheckExistenceOnly() ? Result.create(null, !visible.isEmpty()) : visible;
    }

    /** The user cells of a raw row (data, tombstones and shadow cells of many versions) visible in the snapshot. */
    Result resolveRow(Result raw) throws IOException {
        if (raw.isEmpty()) {
            return raw;
        }
        byte[] row = raw.getRow();
        List<Cell> visible = new ArrayList<>();
        for (ColumnVersions column : ColumnVersions.partition(Arrays.asList(raw.rawCells()))) {
            Cell cell = resolveColumn(row, column);
            if (cell != null) {
                visible.add(cell);
            }
        }
        visible.sort(CellComparator.getInstance());
        return Result.create(visible);
    }

    /** The visible data cell of the column, or null when the snapshot has no value for it. */
    private Cell resolveColumn(byte[] row, ColumnVersions fetched) throws IOException {
        ColumnVersions column = fetched;
        while (true) {
            long completeDownTo = column.completeDownTo(SnapshotQueries.VERSIONS_PER_READ);
            for (long version : column.candidateVersions()) {
                if (version < completeDownTo) {
                    break;
                }
                if (!writers.isVisible(version, column.commitTimestampAt(version), row, column.family(),
                        column.qualifier())) {
                    continue;
                }
                Cell tombstone = column.tombstoneAt(version);
                if (tombstone != null && CellEncoding.isDeletingTombstone(tombstone.getValueArray(),
                        tombstone.getValueOffset(), tombstone.getValueLength())) {
                    return null;
                }
                Cell data = column.dataAt(version);
                if (data != null) {
                    return data;
                }
            }
            if (completeDownTo == 0) {
                return null;
            }
            column = fetchOlder(row, column, completeDownTo);
            if (column == null) {
                return null;
            }
        }
    }

    private ColumnVersions fetchOlder(byte[] row, ColumnVersions column, long before) throws IOException {
        Result older = table.get(SnapshotQueries.olderVersions(row, column.family(), column.qualifier(), before));
        if (older.isEmpty()) {
            return null;
        }
        // The Get names one column, so the partition holds at most that column.
        Collection<ColumnVersions> columns = ColumnVersions.partition(Arrays.asList(older.rawCells()));
        return columns.isEmpty() ? null : columns.iterator().next();
    }
}
