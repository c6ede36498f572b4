package io.tidemark.client;

import io.tidemark.encoding.CellEncoding;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** What happens to a transaction's tentative cells once it ends: shadow cells after a commit, removal otherwise. */
final class TentativeCells {

    private static final Logger LOG = LoggerFactory.getLogger(TentativeCells.class);
    private final Connection connection;
    private final ShadowCellWriter shadowCellWriter;

    TentativeCells(Connection connection, ShadowCellWriter shadowCellWriter) {
        this.connection = connection;
        this.shadowCellWriter = shadowCellWriter;
    }

    /**
     * Marks every column the committed transactions wrote as committed: one shadow cell at each version a transaction
     * wrote it at (the start timestamp, and each checkpoint's version), at its commit timestamp and with its
     * durability. The shadow cells of all the transactions go in one write per table.
     *
     * @return the transactions whose shadow cells are all written: a table's failed write leaves out every
     *         transaction that wrote in it, whatever part of the write landed
     */
    List<Transaction> writeShadowCells(List<Transaction> committed) {
        Map<TableName, List<Put>> shadowsByTable = new LinkedHashMap<>();
        Map<TableName, List<Transaction>> writersByTable = new HashMap<>();
        for (Transaction tx : committed) {
            byte[] value = CellEncoding.encodeCommitTimestamp(tx.commitTimestamp());
            WriteSet writes = tx.writeSet();
            for (TableName table : writes.tables()) {
                Map<byte[], Put> rows = new TreeMap<>(Bytes.BYTES_COMPARATOR);
                for (WrittenCell c : writes.cells(table)) {
                    Put shadows = rows.computeIfAbsent(c.row(), row -> new Put(row).setDurability(tx.durability()));
                    for (long version : c.versions()) {
                        shadows.addColumn(c.family(), CellEncoding.shadowQualifier(c.qualifier()), version, value);
                    }
                }
                shadowsByTable.computeIfAbsent(table, t -> new ArrayList<>()).addAll(rows.values());
                writersByTable.computeIfAbsent(table, t -> new ArrayList<>()).add(tx);
            }
        }
        Set<Transaction> unmarked = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Map.Entry<TableName, List<Put>> shadows : shadowsByTable.entrySet()) {
            TableName table = shadows.getKey();
            try {
                shadowCellWriter.write(table, shadows.getValue());
            } catch (IOException | RuntimeException e) {
                List<Transaction> writers = writersByTable.get(table);
                LOG.warn("the shadow cells in {} of committed transactions {} could not be written; their commit"
                        + " records stay in the commit table and readers resolve their writes there", table,
                        startTimestamps(writers), e);
                unmarked.addAll(writers);
            }
        }
        List<Transaction> marked = new ArrayList<>(committed.size());
        for (Transaction tx : committed) {
            if (!unmarked.contains(tx)) {
                marked.add(tx);
            }
        }
        return marked;
    }

    private static List<Long> startTimestamps(List<Transaction> transactions) {
        List<Long> starts = new ArrayList<>(transactions.size());
        for (Transaction tx : transactions) {
            starts.add(tx.startTimestamp());
        }
        return starts;
    }

    /**
     * Deletes exactly the versions the transaction wrote (data cells and tombstones at its start timestamp and its
     * checkpoint versions), and nothing else: a fast-path write between them is another writer's.
     */
    void remove(Transaction tx) throws IOException {
        WriteSet writes = tx.writeSet();
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
            try (Table t = connection.getTable(table)) {
                TableWrites.delete(t, new ArrayList<>(rows.values()));
            }
        }
    }

    /** The default shadow-cell writer: one put per row, sent together (a single put alone). */
    static ShadowCellWriter directWriter(Connection connection) {
        return (table, shadowCells) -> {
            try (Table t = connection.getTable(table)) {
                TableWrites.put(t, shadowCells);
            }
        };
    }
}
