package io.tidemark.coprocessor.fastpath;

import io.tidemark.encoding.CellEncoding;
import io.tidemark.fastpath.NewerFastPathWriteException;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;

/**
 * Refuses a generic transaction's tentative write to a row that holds a fast-path write committed after the
 * transaction started: the TSO never hears of fast-path writes, so this is the write-write conflict check between
 * the two paths. Runs under the row lock the write itself holds, so no fast-path write can slip in between the check
 * and the write.
 */
final class GenericWriteCheck {

    /** Where the newer fast-path write is looked for. */
    enum Rule {
        /** The row itself: only a fast-path version of this row newer than the start timestamp aborts. */
        ROW,
        /**
         * The paper's rule: the region's clock (largest snapshot read, largest version minted) beyond the start
         * timestamp aborts. Kept for measuring its false aborts against {@link #ROW}.
         */
        REGION
    }

    private final Rule rule;

    GenericWriteCheck(Rule rule) {
        this.rule = rule;
    }

    void check(Region region, RegionClock clock, byte[] row, long startTimestamp) throws IOException {
        // An uninitialized clock knows nothing of writes minted before the region moved: look at the row instead.
        if (rule == Rule.REGION && clock.initialized()) {
            long regionClock = clock.regionWide();
            if (regionClock > startTimestamp) {
                throw new NewerFastPathWriteException("write of transaction " + startTimestamp + " to row "
                        + Bytes.toStringBinary(row) + " refused: the region's fast-path clock is at " + regionClock
                        + ", beyond the transaction's start (region-wide rule)");
            }
            return;
        }
        // Versions after the start, below the operation records' timestamp (records are not writes). Only fast-path
        // versions count: checkpoint versions (this transaction's own, or a later one's) are checked by the TSO.
        Get newer = new Get(row).setTimeRange(startTimestamp + 1, CellEncoding.OPERATION_RECORD_TIMESTAMP)
                .readAllVersions().setFilter(new KeyOnlyFilter());
        for (Cell cell : region.get(newer).rawCells()) {
            if (Timestamps.isFastPathVersion(cell.getTimestamp())) {
                throw new NewerFastPathWriteException("write of transaction " + startTimestamp + " to row "
                        + Bytes.toStringBinary(row) + " refused: a fast-path write committed at " + cell.getTimestamp()
                        + ", after the transaction started");
            }
        }
    }
}
