package io.tidemark.coprocessor.snapshot;

import io.tidemark.coprocessor.StoredColumn;
import io.tidemark.coprocessor.WriterOutcomes;
import io.tidemark.protocol.CommitMode;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.regionserver.Region;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns the stored cells of one row into what a transaction's snapshot shows: for each user column, the newest
 * version whose writer is in the snapshot (the transaction itself, or one that committed before the start
 * timestamp) decides; a deletion hides the column, otherwise its data cell is the value. The same rule as the
 * client's {@code SnapshotReader}, so both paths return the same cells.
 */
final class SnapshotResolver {

    private final Region region;
    private final long snapshot;
    private final boolean mayInvalidate;
    private final WriterOutcomes writers;

    SnapshotResolver(Region region, long snapshot, CommitMode commitMode, WriterOutcomes writers) {
        this.region = region;
        this.snapshot = snapshot;
        // A batched BEGIN waits until every earlier commit is durable: a commit the reader cannot see is after it.
        this.mayInvalidate = commitMode == CommitMode.LOW_LATENCY;
        this.writers = writers;
    }

    /** The visible data cells of the row, sorted; never a tombstone or shadow cell. */
    List<Cell> visibleCells(List<Cell> rowCells) throws IOException {
        if (rowCells.isEmpty()) {
            return rowCells;
        }
        byte[] row = CellUtil.cloneRow(rowCells.get(0));
        List<Cell> visible = new ArrayList<>();
        for (StoredColumn column : StoredColumn.partition(rowCells)) {
            Cell cell = visibleCell(row, column);
            if (cell != null) {
                visible.add(cell);
            }
        }
        visible.sort(CellComparator.getInstance());
        return visible;
    }

    private Cell visibleCell(byte[] row, StoredColumn fetched) throws IOException {
        StoredColumn column = fetched;
        while (true) {
            long completeDownTo = column.completeDownTo(SnapshotScans.VERSIONS_PER_READ);
            for (long version : column.writtenVersions()) {
                if (version < completeDownTo) {
                    break;
                }
                if (!isVisible(version, row, column)) {
                    continue;
                }
                if (column.isDeletionAt(version)) {
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
            List<Cell> older = region.get(SnapshotScans.olderVersions(row, column.family(), column.qualifier(),
                    completeDownTo)).listCells();
            if (older == null || older.isEmpty()) {
                return null;
            }
            // The Get names one column, so the partition holds only that column.
            column = StoredColumn.partition(older).get(0);
        }
    }

    private boolean isVisible(long version, byte[] row, StoredColumn column) throws IOException {
        if (version == snapshot) {
            return true;
        }
        Long shadowCommit = column.commitTimestampAt(version);
        if (shadowCommit != null) {
            return shadowCommit < snapshot;
        }
        return writers.commitTimestampOf(version, row, column.family(), column.qualifier(), mayInvalidate)
                < snapshot;
    }
}
