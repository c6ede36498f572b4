package io.tidemark.coprocessor.fastpath;

import io.tidemark.encoding.CellEncoding;
import io.tidemark.fastpath.IdempotencyKey;
import io.tidemark.fastpath.OperationRecord;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Result;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.List;

/**
 * The fast-path operation records of one row (docs/fast-path.md, "Retries"), read under the row's exclusive lock. All
 * records share one HBase timestamp ({@link CellEncoding#OPERATION_RECORD_TIMESTAMP}), above every transactional
 * version, so a record is the newest version of its qualifier and any read of the row's newest versions holds them
 * all: they come from the same read the committed row starts from.
 */
final class RowOperationRecords {

    private final byte[] row;
    private final List<Cell> records;

    private RowOperationRecords(byte[] row, List<Cell> records) {
        this.row = row;
        this.records = records;
    }

    /** The records among {@code newestVersions}, a read of the whole row with at least one version per column. */
    static RowOperationRecords in(byte[] row, Result newestVersions) {
        List<Cell> records = new ArrayList<>();
        for (Cell c : newestVersions.rawCells()) {
            if (c.getTimestamp() == CellEncoding.OPERATION_RECORD_TIMESTAMP && CellEncoding.isOperationRecordQualifier(
                    c.getQualifierArray(), c.getQualifierOffset(), c.getQualifierLength())) {
                records.add(c);
            }
        }
        return new RowOperationRecords(row, records);
    }

    /**
     * The stream's last recorded operation on this row, or null when it has none. A stream writes its record in the
     * table's first family; should the families have changed, the record with the highest sequence number counts.
     */
    @Nullable OperationRecord latestOf(IdempotencyKey key) {
        byte[] qualifier = key.recordQualifier();
        OperationRecord latest = null;
        for (Cell c : records) {
            if (CellUtil.matchingQualifier(c, qualifier)) {
                OperationRecord r = OperationRecord.decode(c.getValueArray(), c.getValueOffset(), c.getValueLength());
                if (latest == null || r.sequence() > latest.sequence()) {
                    latest = r;
                }
            }
        }
        return latest;
    }

    /**
     * Deletes of the records of other streams written before {@code writtenBefore} (region-server wall clock, ms).
     * Such a stream is never used again (see {@link FastPathSettings#checkOperationTimeout}), so the delete marker,
     * which hides every later cell of its qualifier and timestamp until a major compaction, can hide nothing.
     */
    Delete expired(long writtenBefore, IdempotencyKey writer) {
        byte[] own = writer.recordQualifier();
        Delete delete = new Delete(row);
        for (Cell c : records) {
            if (CellUtil.matchingQualifier(c, own)) {
                continue;
            }
            if (isExpired(c, writtenBefore)) {
                delete.addColumn(CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c),
                        CellEncoding.OPERATION_RECORD_TIMESTAMP);
            }
        }
        return delete;
    }

    /** Whether the record cell was written before {@code writtenBefore}; a record this code cannot read is kept. */
    static boolean isExpired(Cell record, long writtenBefore) {
        try {
            return OperationRecord.decode(record.getValueArray(), record.getValueOffset(), record.getValueLength())
                    .writtenAtMillis() < writtenBefore;
        } catch (IllegalStateException | IllegalArgumentException unreadable) {
            return false;
        }
    }
}
