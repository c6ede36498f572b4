package io.tidemark.coprocessor.snapshot;

import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.filter.Filter;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Runs the user's {@link Filter} over the snapshot-visible cells of each row, in the order and with the calls HBase's
 * own region scanner makes ({@code filterAllRemaining}, {@code filterRowKey}, {@code filterCell} and
 * {@code transformCell} per cell, {@code filterRowCells}, {@code filterRow}, {@code reset}). The filter therefore
 * sees exactly what it would see on a plain table holding the snapshot: one version per column, no Tidemark
 * metadata. With one version per column, "next column" and "skip" mean the same; as in HBase, where each column
 * family is scanned by its own store scanner, "next row" and seek hints skip the rest of the current family only.
 */
final class VisibleCellFilter {

    private final Filter filter;

    /** @param filter the user's filter, or null for none */
    VisibleCellFilter(Filter filter) {
        this.filter = filter;
    }

    /** Whether the filter wants no further rows (for example a full {@code PageFilter}). */
    boolean allRemainingFiltered() throws IOException {
        return filter != null && filter.filterAllRemaining();
    }

    /** The cells of the row the filter lets through (possibly transformed); empty when it drops the row. */
    List<Cell> apply(List<Cell> visible) throws IOException {
        if (filter == null || visible.isEmpty()) {
            return visible;
        }
        try {
            return filterRow(visible);
        } finally {
            filter.reset();
        }
    }

    @SuppressWarnings("MixedMutabilityReturnType") // the caller only reads the kept cells
    private List<Cell> filterRow(List<Cell> visible) throws IOException {
        if (filter.filterRowKey(visible.get(0))) {
            return Collections.emptyList();
        }
        List<Cell> kept = new ArrayList<>(visible.size());
        Cell family = null;
        boolean familyDone = false;
        Cell seekHint = null;
        for (Cell cell : visible) {
            if (family == null || !CellUtil.matchingFamily(cell, family)) {
                // HBase scans each family's store on its own: "next row" and seek hints end at the family.
                family = cell;
                familyDone = false;
                seekHint = null;
            }
            if (familyDone || (seekHint != null && CellComparator.getInstance().compare(cell, seekHint) < 0)) {
                continue;
            }
            seekHint = null;
            Filter.ReturnCode code = filter.filterCell(cell);
            if (code == Filter.ReturnCode.INCLUDE || code == Filter.ReturnCode.INCLUDE_AND_NEXT_COL) {
                kept.add(filter.transformCell(cell));
            } else if (code == Filter.ReturnCode.INCLUDE_AND_SEEK_NEXT_ROW) {
                kept.add(filter.transformCell(cell));
                familyDone = true;
            } else if (code == Filter.ReturnCode.NEXT_ROW) {
                familyDone = true;
            } else if (code == Filter.ReturnCode.SEEK_NEXT_USING_HINT) {
                seekHint = filter.getNextCellHint(cell);
                familyDone = seekHint == null;
            }
            // SKIP and NEXT_COL: leave the cell out.
        }
        if (filter.hasFilterRow()) {
            filter.filterRowCells(kept);
        }
        if (kept.isEmpty() || filter.filterRow()) {
            return Collections.emptyList();
        }
        return kept;
    }
}
