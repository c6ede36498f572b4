package io.tidemark.coprocessor.compaction;

import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.regionserver.InternalScanner;
import org.apache.hadoop.hbase.regionserver.ScannerContext;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Wraps a compaction's scanner: gathers each whole row, lets the {@link VersionCollector} decide what survives, and
 * hands the survivors to the compaction writer. The scanner below may cut rows into chunks (HBase limits cells per
 * call), so the last row of a chunk waits until the next chunk shows it complete.
 */
final class GarbageCollectingScanner implements InternalScanner {

    private final InternalScanner stored;
    private final VersionCollector collector;
    private final List<Cell> pending = new ArrayList<>();
    private boolean storedExhausted;

    GarbageCollectingScanner(InternalScanner stored, VersionCollector collector) {
        this.stored = stored;
        this.collector = collector;
    }

    @Override
    public boolean next(List<Cell> result, ScannerContext scannerContext) throws IOException {
        while (!storedExhausted && firstCellOfLastRow() == 0) {
            storedExhausted = !stored.next(pending, scannerContext);
        }
        int complete = storedExhausted ? pending.size() : firstCellOfLastRow();
        emitRows(pending.subList(0, complete), result);
        pending.subList(0, complete).clear();
        return !storedExhausted;
    }

    /** Index of the first pending cell of the last row seen (0 when all pending cells are of one row). */
    private int firstCellOfLastRow() {
        int i = pending.size() - 1;
        if (i < 0) {
            return 0;
        }
        Cell last = pending.get(i);
        while (i > 0 && CellUtil.matchingRows(pending.get(i - 1), last)) {
            i--;
        }
        return i;
    }

    private void emitRows(List<Cell> cells, List<Cell> result) {
        int start = 0;
        for (int i = 1; i <= cells.size(); i++) {
            if (i == cells.size() || !CellUtil.matchingRows(cells.get(i), cells.get(start))) {
                result.addAll(collector.collect(new ArrayList<>(cells.subList(start, i))));
                start = i;
            }
        }
    }

    @Override
    public void close() throws IOException {
        stored.close();
    }
}
