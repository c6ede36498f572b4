package io.tidemark.coprocessor.snapshot;

import io.tidemark.coprocessor.WrappingRegionScanner;
import io.tidemark.coprocessor.horizon.HorizonCheck;
import io.tidemark.visibility.SnapshotQuery;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.regionserver.ScannerContext;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A region scanner that returns, row by row, only what the transaction's snapshot shows, after the user's filter.
 * Reads each whole row (the newest versions up to the snapshot, metadata included) from the underlying scanner,
 * resolves it, filters it, and skips rows left empty, so row limits count visible rows only. After each row it
 * checks the snapshot against the region's garbage-collection horizon.
 *
 * <p>The underlying scanner is read without the RPC's {@link ScannerContext}: its size and time limits may cut a row
 * into partial results, and a row can only be resolved whole. The RPC is bounded by its row count instead (the
 * client sets the scan's caching).
 */
final class SnapshotRegionScanner extends WrappingRegionScanner {

    private final SnapshotQuery query;
    /** The versions per column the user's scan asked for. */
    private final int maxVersions;
    private final VisibleCellFilter filter;
    private final HorizonCheck horizon;
    private final List<Cell> rowCells = new ArrayList<>();
    private boolean exhausted;

    SnapshotRegionScanner(RegionScanner stored, SnapshotQuery query, int maxVersions, VisibleCellFilter filter,
                          HorizonCheck horizon) {
        super(stored);
        this.query = query;
        this.maxVersions = maxVersions;
        this.filter = filter;
        this.horizon = horizon;
    }

    @Override
    public boolean nextRaw(List<Cell> result) throws IOException {
        return nextVisibleRow(result, true);
    }

    @Override
    public boolean nextRaw(List<Cell> result, ScannerContext scannerContext) throws IOException {
        return nextVisibleRow(result, true);
    }

    @Override
    public boolean next(List<Cell> result) throws IOException {
        return nextVisibleRow(result, false);
    }

    @Override
    public boolean next(List<Cell> result, ScannerContext scannerContext) throws IOException {
        return nextVisibleRow(result, false);
    }

    /** Adds the next row with visible cells to {@code result}; false when no rows follow it. */
    private boolean nextVisibleRow(List<Cell> result, boolean raw) throws IOException {
        while (!exhausted) {
            if (filter.allRemainingFiltered()) {
                exhausted = true;
                break;
            }
            rowCells.clear();
            boolean more = raw ? wrapped.nextRaw(rowCells) : wrapped.next(rowCells);
            exhausted = !more;
            List<Cell> resolved = query.visibleCells(rowCells, maxVersions);
            // After every read (even of nothing: the scanner may have skipped rows whose versions were collected).
            horizon.afterRead();
            List<Cell> visible = filter.apply(resolved);
            rowCells.clear();
            if (!visible.isEmpty()) {
                result.addAll(visible);
                return more;
            }
        }
        return false;
    }

    /**
     * Only the user's filter can end the whole scan. HBase reads "filter done" with no results as the end of the scan
     * across every later region, so this region running out of rows (with nothing visible left) must not say so.
     */
    @Override
    public boolean isFilterDone() throws IOException {
        return filter.allRemainingFiltered();
    }

    @Override
    public boolean reseek(byte[] row) throws IOException {
        exhausted = false;
        return super.reseek(row);
    }
}
