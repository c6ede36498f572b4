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

import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns a transaction's puts and deletes into tentative cells at the version of the checkpoint that was current when
 * this was made (the start timestamp before the first checkpoint): data cells for puts, tombstones for deletes. Every
 * written column is recorded in the write set first, conflict-checked unless these mutations are conflict-free. No
 * I/O: the synchronous {@link TentativeWriter} and the asynchronous {@link AsyncTransactionalTable} do the reads a
 * row or family delete needs and send the cells, each its own way.
 */
final class TentativeMutations {

    private final Transaction tx;
    private final TableName tableName;
    private final boolean conflictChecked;
    /**
     * Fixed when the operation is issued, as the reader's own-writes bound is: an asynchronous write issued before
     * {@link Transaction#checkpoint()} but run after it still belongs to the earlier checkpoint.
     */
    private final long version;

    /** @throws TransactionStateException the transaction is not running or was begun read-only */
    TentativeMutations(Transaction tx, TableName tableName, boolean conflictChecked) {
        tx.checkWritable("write to " + tableName.getNameAsString());
        this.tx = tx;
        this.tableName = tableName;
        this.conflictChecked = conflictChecked;
        this.version = tx.writeVersion();
    }

    /** The tentative cells of {@code puts}, one Put per Put; refuses user timestamps and reserved qualifiers. */
    List<Put> puts(List<Put> puts) {
        for (Put p : puts) {
            checkPut(p);
        }
        List<Put> tentative = new ArrayList<>(puts.size());
        for (Put p : puts) {
            tentative.add(tentativePut(p));
        }
        return tentative;
    }

    /**
     * The deletes, checked: {@link Deletes#visibleReads()} names what row and family deletes cover, to be read from
     * the snapshot (with {@link Transaction#readerContextForWrites}), and {@link Deletes#tombstones} turns the answers
     * into tombstones.
     */
    Deletes deletes(List<Delete> deletes) {
        for (Delete d : deletes) {
            checkDelete(d);
        }
        return new Deletes(deletes);
    }

    /** A list of deletes whose covered columns are about to be read. */
    final class Deletes {
        private final List<Delete> deletes;
        private final List<Get> visibleReads = new ArrayList<>();
        private final int[] readOf;

        private Deletes(List<Delete> deletes) {
            this.deletes = deletes;
            // The columns row and family deletes cover, for all the deletes in one multi-get rather than one read each.
            this.readOf = new int[deletes.size()];
            for (int i = 0; i < deletes.size(); i++) {
                Get columns = coveredColumns(deletes.get(i));
                readOf[i] = columns == null ? -1 : visibleReads.size();
                if (columns != null) {
                    visibleReads.add(columns);
                }
            }
        }

        /** The snapshot reads the deletes need; empty when they name only columns. */
        List<Get> visibleReads() {
            return visibleReads;
        }

        /** The tombstones, given the answers to {@link #visibleReads()} in order; deletes of nothing are left out. */
        List<Put> tombstones(List<Result> visible) {
            List<Put> tombstones = new ArrayList<>(deletes.size());
            for (int i = 0; i < deletes.size(); i++) {
                Put p = tombstonesFor(deletes.get(i), readOf[i] < 0 ? null : visible.get(readOf[i]));
                if (!p.isEmpty()) {
                    tombstones.add(p);
                }
            }
            return tombstones;
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
        if (tx.isBegun()) {
            // Kept writes of a transaction not begun yet are marked when they leave the buffer (WriteBuffer.take).
            FastPathProtocol.markTransaction(put, tx.startTimestamp());
        }
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
