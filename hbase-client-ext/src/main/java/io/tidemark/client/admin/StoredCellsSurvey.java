package io.tidemark.client.admin;

import io.tidemark.encoding.CellEncoding;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.jspecify.annotations.Nullable;

import java.io.IOException;

/**
 * What a table stores before it is converted in place: how many cells (every version, HBase delete markers included,
 * as a raw scan returns them), which one has the largest timestamp, and whether any is Tidemark metadata. The
 * conversion refuses a table holding a cell at or above its conversion timestamp, since such a cell would sort among
 * transactional versions.
 */
final class StoredCellsSurvey {

    private long cells;
    private long maxTimestamp = -1;
    private byte @Nullable [] maxRow;
    private byte @Nullable [] metadataRow;

    private StoredCellsSurvey() {
    }

    /** Reads every stored cell of the table once (keys only, without filling the block cache). */
    static StoredCellsSurvey of(Connection connection, TableName table) throws IOException {
        StoredCellsSurvey survey = new StoredCellsSurvey();
        Scan scan = new Scan().setRaw(true).readAllVersions().setFilter(new KeyOnlyFilter()).setCaching(1000)
                .setCacheBlocks(false);
        try (Table t = connection.getTable(table); ResultScanner rows = t.getScanner(scan)) {
            for (Result row : rows) {
                for (Cell cell : row.rawCells()) {
                    survey.add(cell);
                }
            }
        }
        return survey;
    }

    private void add(Cell cell) {
        cells++;
        if (metadataRow == null && CellEncoding.isMetadataQualifier(cell.getQualifierArray(),
                cell.getQualifierOffset(), cell.getQualifierLength())) {
            metadataRow = CellUtil.cloneRow(cell);
        }
        if (cell.getTimestamp() > maxTimestamp) {
            maxTimestamp = cell.getTimestamp();
            maxRow = CellUtil.cloneRow(cell);
        }
    }

    /** Cells stored, every version and delete marker counted. */
    long cells() {
        return cells;
    }

    /** The largest timestamp of a stored cell, or -1 when the table is empty. */
    long maxTimestamp() {
        return maxTimestamp;
    }

    /**
     * The first row holding Tidemark metadata (a shadow cell, a tombstone...), printable, or null when there is none:
     * the table held transactions, so its cells without shadow cells may be tentative writes.
     */
    @Nullable String metadataRow() {
        return metadataRow == null ? null : Bytes.toStringBinary(metadataRow);
    }

    /** The row of the cell with the largest timestamp, printable; only when the table is not empty. */
    String maxRow() {
        return Bytes.toStringBinary(maxRow);
    }
}
