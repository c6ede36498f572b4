package io.tidemark.client;

import io.tidemark.timestamp.Timestamps;
import io.tidemark.writeset.ConflictLevel;
import io.tidemark.writeset.WriteSetIds;
import org.apache.hadoop.hbase.TableName;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Every column a transaction wrote, per table, with the versions (checkpoints) it wrote it at. It drives conflict
 * detection (the ids sent to the TSO: every column but those only written conflict-free; columns, never versions, so
 * a column written in several checkpoints is one id), the shadow cells written after commit, and the cells removed by a
 * rollback. A column is recorded before its cells are sent to HBase, so a write that failed halfway is still cleaned
 * up.
 */
final class WriteSet {

    private final Map<TableName, Map<WrittenCell.Key, WrittenCell>> tables = new LinkedHashMap<>();

    synchronized boolean isEmpty() {
        return tables.isEmpty();
    }

    /**
     * Records a data cell at {@code version}; returns true when this transaction already wrote a tombstone for the
     * column at that version, which the caller must then rewrite as cancelled.
     */
    synchronized boolean recordData(TableName table, byte[] row, byte[] family, byte[] qualifier, long version,
                                    boolean conflictChecked) {
        WrittenCell cell = cell(table, row, family, qualifier, conflictChecked);
        cell.markData(version);
        return cell.hasTombstoneAt(version);
    }

    synchronized void recordTombstone(TableName table, byte[] row, byte[] family, byte[] qualifier, long version,
                                      boolean conflictChecked) {
        cell(table, row, family, qualifier, conflictChecked).markTombstone(version);
    }

    /**
     * Moves what was recorded at {@link Timestamps#NONE}, before the transaction began (lazy begin), to its start
     * timestamp {@code start}: nothing was recorded at any other version yet.
     */
    synchronized void rebase(long start) {
        for (Map<WrittenCell.Key, WrittenCell> cells : tables.values()) {
            for (WrittenCell cell : cells.values()) {
                cell.rebase(start);
            }
        }
    }

    synchronized Set<TableName> tables() {
        return new LinkedHashSet<>(tables.keySet());
    }

    synchronized Collection<WrittenCell> cells(TableName table) {
        Map<WrittenCell.Key, WrittenCell> cells = tables.get(table);
        return cells == null ? Collections.emptyList() : new ArrayList<>(cells.values());
    }

    /** Ids of the conflict-checked written cells, or of their rows, for the TSO's conflict detection. */
    synchronized long[] conflictIds(ConflictLevel level) {
        Set<Long> ids = new HashSet<>();
        for (Map.Entry<TableName, Map<WrittenCell.Key, WrittenCell>> t : tables.entrySet()) {
            byte[] tableName = t.getKey().getName();
            for (WrittenCell c : t.getValue().values()) {
                if (!c.isConflictChecked()) {
                    continue;
                }
                ids.add(level == ConflictLevel.ROW ? WriteSetIds.row(tableName, c.row())
                        : WriteSetIds.cell(tableName, c.row(), c.family(), c.qualifier()));
            }
        }
        return toArray(ids);
    }

    synchronized long[] tableIds() {
        Set<Long> ids = new HashSet<>();
        for (TableName t : tables.keySet()) {
            ids.add(WriteSetIds.table(t.getName()));
        }
        return toArray(ids);
    }

    private WrittenCell cell(TableName table, byte[] row, byte[] family, byte[] qualifier, boolean conflictChecked) {
        WrittenCell cell = tables.computeIfAbsent(table, t -> new LinkedHashMap<>())
                .computeIfAbsent(new WrittenCell.Key(row, family, qualifier),
                        k -> new WrittenCell(row, family, qualifier));
        if (conflictChecked) {
            cell.markConflictChecked();
        }
        return cell;
    }

    private static long[] toArray(Set<Long> ids) {
        long[] result = new long[ids.size()];
        int i = 0;
        for (long id : ids) {
            result[i++] = id;
        }
        return result;
    }
}
