package io.tidemark.coprocessor.committable;

import io.tidemark.committable.CommitTableSchema;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.util.Bytes;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The decisions stored in one region of the commit table for a set of rows, read with a single region scanner that
 * jumps from row to row in key order. One {@code Region.get} per row builds a fresh scanner (store scanners, a tracing
 * span) every time, which was a quarter of the region server's CPU under group commit; one scanner per batch pays that
 * once.
 */
final class StoredDecisions {

    private StoredDecisions() {
    }

    /**
     * The commit-column value of each of {@code rows} that holds one, by row; rows without a decision are absent.
     *
     * @param rows the rows to look up, all in {@code region}, in any order, duplicates allowed; not empty
     */
    static NavigableMap<byte[], byte[]> read(Region region, Collection<byte[]> rows) throws IOException {
        NavigableSet<byte[]> wanted = new TreeSet<>(Bytes.BYTES_COMPARATOR);
        wanted.addAll(rows);
        NavigableMap<byte[], byte[]> stored = new TreeMap<>(Bytes.BYTES_COMPARATOR);
        Scan scan = new Scan().withStartRow(wanted.first()).withStopRow(wanted.last(), true)
                .addColumn(CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER);
        try (RegionScanner scanner = region.getScanner(scan)) {
            List<Cell> cells = new ArrayList<>(1);
            Cell current = null;
            boolean started = false;
            for (byte[] row : wanted) {
                if (current == null || Bytes.compareTo(current.getRowArray(), current.getRowOffset(),
                        current.getRowLength(), row, 0, row.length) < 0) {
                    // Behind the wanted row: move forward to it (a scanner only seeks forward, rows come sorted).
                    if (started) {
                        scanner.reseek(row);
                    }
                    started = true;
                    current = nextCell(scanner, cells);
                    if (current == null) {
                        break;
                    }
                }
                if (CellUtil.matchingRows(current, row)) {
                    stored.put(row, CellUtil.cloneValue(current));
                }
            }
        }
        return stored;
    }

    /** The first cell of the scanner's next row that has one, or null at the end. */
    private static @Nullable Cell nextCell(RegionScanner scanner, List<Cell> cells) throws IOException {
        boolean more;
        do {
            cells.clear();
            more = scanner.next(cells);
        } while (cells.isEmpty() && more);
        return cells.isEmpty() ? null : cells.get(0);
    }
}
