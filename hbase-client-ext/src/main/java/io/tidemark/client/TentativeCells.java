package io.tidemark.client;

import io.tidemark.encoding.CellEncoding;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What happens to a transaction's tentative cells once it ends: shadow cells after a commit, removal otherwise. */
final class TentativeCells {

    private final Connection connection;
    private final ShadowCellWriter shadowCellWriter;

    TentativeCells(Connection connection, ShadowCellWriter shadowCellWriter) {
        this.connection = connection;
        this.shadowCellWriter = shadowCellWriter;
    }

    /**
     * Marks every written column as committed at {@code commitTs}: one shadow cell at each version it was written at
     * (the start timestamp, and each checkpoint's version), with the transaction's durability.
     */
    void writeShadowCells(Transaction tx, long commitTs) throws IOException {
        for (Map.Entry<TableName, List<Put>> table : shadowCells(tx, commitTs).entrySet()) {
            shadowCellWriter.write(table.getKey(), table.getValue());
        }
    }

    /** Deletes exactly the versions the transaction wrote ({@link #removals}). */
    void remove(Transaction tx) throws IOException {
        for (Map.Entry<TableName, List<Delete>> table : removals(tx).entrySet()) {
            try (Table t = connection.getTable(table.getKey())) {
                TableWrites.delete(t, table.getValue());
            }
        }
    }

    /** The shadow cells of every column {@code tx} wrote, committed at {@code commitTs}: one Put per row, per table. */
    static Map<TableName, List<Put>> shadowCells(Transaction tx, long commitTs) {
        byte[] value = CellEncoding.encodeCommitTimestamp(commitTs);
        WriteSet writes = tx.writeSet();
        Map<TableName, List<Put>> tables = new LinkedHashMap<>();
        for (TableName table : writes.tables()) {
            Map<byte[], Put> rows = new TreeMap<>(Bytes.BYTES_COMPARATOR);
            for (WrittenCell c : writes.cells(table)) {
                Put shadows = rows.computeIfAbsent(c.row(), row -> new Put(row).setDurability(tx.durability()));
                for (long version : c.versions()) {
                    shadows.addColumn(c.family(), CellEncoding.shadowQualifier(c.qualifier()), version, value);
                }
            }
            tables.put(table, new ArrayList<>(rows.values()));
        }
        return tables;
    }

    /**
     * The Deletes of exactly the versions {@code tx} wrote (data cells and tombstones at its start timestamp and its
     * checkpoint versions), and nothing else: a fast-path write between them is another writer's. One per row, per
     * table.
     */
    static Map<TableName, List<Delete>> removals(Transaction tx) {
        WriteSet writes = tx.writeSet();
        Map<TableName, List<Delete>> tables = new LinkedHashMap<>();
        for (TableName table : writes.tables()) {
            Map<byte[], Delete> rows = new TreeMap<>(Bytes.BYTES_COMPARATOR);
            for (WrittenCell c : writes.cells(table)) {
                Delete d = rows.computeIfAbsent(c.row(), row -> new Delete(row).setDurability(tx.durability()));
                for (long version : c.dataVersions()) {
                    d.addColumn(c.family(), c.qualifier(), version);
                }
                for (long version : c.tombstoneVersions()) {
                    d.addColumn(c.family(), CellEncoding.tombstoneQualifier(c.qualifier()), version);
                }
            }
            tables.put(table, new ArrayList<>(rows.values()));
        }
        return tables;
    }

    /** The default shadow-cell writer: one put per row, sent together. */
    static ShadowCellWriter directWriter(Connection connection) {
        return (table, shadowCells) -> {
            try (Table t = connection.getTable(table)) {
                TableWrites.put(t, shadowCells);
            }
        };
    }
}
