package io.tidemark.client;

import io.tidemark.encoding.CellEncoding;
import io.tidemark.fastpath.FastPathProtocol;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns a transaction's puts and deletes into tentative cells at the version of the checkpoint that was current when
 * the writer was made (the start timestamp before the first checkpoint): data cells for puts, tombstones for deletes.
 * Every written column is recorded in the write set first, conflict-checked unless this writer writes conflict-free.
 * The cells go to the transaction's write buffer ({@link WriteBuffer}), or to HBase at once when it keeps none.
 */
final class TentativeWriter {

    private final Transaction tx;
    private final TableName tableName;
    private final Table table;
    private final SnapshotReader reader;
    private final boolean conflictChecked;
    /**
     * Fixed when the operation is issued, as the reader's own-writes bound is: an {@link AsyncTTable} write issued
     * before {@link Transaction#checkpoint()} but run after it still belongs to the earlier checkpoint.
     */
    private final long version;

    /** @throws TransactionStateException the transaction is not running or was begun read-only */
    TentativeWriter(Transaction tx, TableName tableName, Table table, SnapshotReader reader, boolean conflictChecked) {
        tx.checkWritable("write to " + tableName.getNameAsString());
        this.tx = tx;
        this.tableName = tableName;
        this.table = table;
        this.reader = reader;
        this.conflictChecked = conflictChecked;
        this.version = tx.writeVersion();
    }

    void put(List<Put> puts) throws IOException {
        for (Put p : puts) {
            checkPut(p);
        }
        List<Put> tentative = new ArrayList<>(puts.size());
        for (Put p : puts) {
            tentative.add(tentativePut(p));
        }
        write(tentative);
    }

    void delete(List<Delete> deletes) throws IOException {
        for (Delete d : deletes) {
            checkDelete(d);
        }
        // The columns row and family deletes cover, for all the deletes in one multi-get rather than one read each.
        List<Get> visibleReads = new ArrayList<>();
        int[] readOf = new int[deletes.size()];
        for (int i = 0; i < deletes.size(); i++) {
            Get columns = coveredColumns(deletes.get(i));
            readOf[i] = columns == null ? -1 : visibleReads.size();
            if (columns != null) {
                visibleReads.add(columns);
            }
        }
        Result[] visible = visibleReads.isEmpty() ? new Result[0] : reader.get(visibleReads);
        List<Put> tombstones = new ArrayList<>(deletes.size());
        for (int i = 0; i < deletes.size(); i++) {
            Put p = tombstonesFor(deletes.get(i), readOf[i] < 0 ? null : visible[readOf[i]]);
            if (!p.isEmpty()) {
                tombstones.add(p);
            }
        }
        if (!tombstones.isEmpty()) {
            write(tombstones);
        }
    }

    /** Keeps the tentative cells in the transaction's write buffer, or sends them when it keeps nothing. */
    private void write(List<Put> tentative) throws IOException {
        WriteBuffer buffer = tx.writeBuffer();
        if (!buffer.isEnabled()) {
            TableWrites.put(table, tentative);
            return;
        }
        buffer.add(tableName, tentative);
        if (buffer.isFull()) {
            tx.manager().sendBufferedWrites(tx);
        }
    }

    private static void checkPut(Put put) {
        checkNoTimestamp(put, "Put");
        for (List<Cell> cells : put.getFamilyCellMap().values()) {
            for (Cell c : cells) {
                if (c.getTimestamp() != HConstants.LATEST_TIMESTAMP) {
                    throw new TimestampNotAllowedException("Put");
                }
                CellEncoding.checkUserQualifier(CellUtil.cloneQualifier(c));
            }
        }
    }

    private static void checkDelete(Delete delete) {
        checkNoTimestamp(delete, "Delete");
        for (List<Cell> cells : delete.getFamilyCellMap().values()) {
            for (Cell c : cells) {
                if (c.getTimestamp() != HConstants.LATEST_TIMESTAMP) {
                    throw new TimestampNotAllowedException("Delete");
                }
                if (c.getType() != Cell.Type.DeleteFamily) {
                    CellEncoding.checkUserQualifier(CellUtil.cloneQualifier(c));
                }
            }
        }
    }

    private static void checkNoTimestamp(Mutation m, String kind) {
        if (m.getTimestamp() != HConstants.LATEST_TIMESTAMP) {
            throw new TimestampNotAllowedException(kind);
        }
    }

    private Put tentativePut(Put user) {
        byte[] row = user.getRow();
        Put put = new Put(row);
        put.setDurability(tx.durabilityFor(user));
        FastPathProtocol.markTransaction(put, tx.startTimestamp());
        for (Map.Entry<byte[], List<Cell>> f : user.getFamilyCellMap().entrySet()) {
            for (Cell c : f.getValue()) {
                byte[] q = CellUtil.cloneQualifier(c);
                boolean deletedEarlier = tx.writeSet().recordData(tableName, row, f.getKey(), q, version,
                        conflictChecked);
                put.addColumn(f.getKey(), q, version, CellUtil.cloneValue(c));
                if (deletedEarlier) {
                    // An HBase delete at this exact version would also hide the new value, so the tombstone is
                    // rewritten as cancelled instead.
                    put.addColumn(f.getKey(), CellEncoding.tombstoneQualifier(q), version,
                            CellEncoding.TOMBSTONE_CANCELLED);
                }
            }
        }
        return put;
    }

    /**
     * What a row or family delete covers, to be read from the snapshot: the whole row, or the deleted families; null
     * when the delete names only columns.
     */
    private static @Nullable Get coveredColumns(Delete delete) {
        if (delete.getFamilyCellMap().isEmpty()) {
            return new Get(delete.getRow());
        }
        Get families = null;
        for (Map.Entry<byte[], List<Cell>> f : delete.getFamilyCellMap().entrySet()) {
            for (Cell c : f.getValue()) {
                if (c.getType() == Cell.Type.DeleteFamily) {
                    families = families == null ? new Get(delete.getRow()) : families;
                    families.addFamily(f.getKey());
                }
            }
        }
        return families;
    }

    /**
     * One tombstone per deleted column; family and row deletes cover {@code visible}, the columns the snapshot shows
     * of what {@link #coveredColumns} named (null when it named nothing).
     */
    private Put tombstonesFor(Delete delete, @Nullable Result visible) {
        byte[] row = delete.getRow();
        Put put = new Put(row);
        put.setDurability(tx.durabilityFor(delete));
        FastPathProtocol.markTransaction(put, tx.startTimestamp());
        for (Map.Entry<byte[], List<Cell>> f : delete.getFamilyCellMap().entrySet()) {
            for (Cell c : f.getValue()) {
                if (c.getType() != Cell.Type.DeleteFamily) {
                    addTombstone(put, f.getKey(), CellUtil.cloneQualifier(c));
                }
            }
        }
        if (visible != null) {
            for (Cell c : visible.rawCells()) {
                addTombstone(put, CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c));
            }
        }
        return put;
    }

    private void addTombstone(Put put, byte[] family, byte[] qualifier) {
        tx.writeSet().recordTombstone(tableName, put.getRow(), family, qualifier, version, conflictChecked);
        put.addColumn(family, CellEncoding.tombstoneQualifier(qualifier), version, CellEncoding.TOMBSTONE_DELETE);
    }
}
