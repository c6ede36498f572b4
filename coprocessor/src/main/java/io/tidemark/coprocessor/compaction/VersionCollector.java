package io.tidemark.coprocessor.compaction;

import io.tidemark.encoding.CellEncoding;
import io.tidemark.timestamp.Timestamps;
import io.tidemark.coprocessor.RegionMetrics;
import io.tidemark.visibility.ColumnKey;
import io.tidemark.visibility.ColumnVersions;
import io.tidemark.visibility.WriterOutcome;
import io.tidemark.visibility.WriterResolver;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides which stored versions of a transactional row a compaction keeps (docs/coprocessors.md, "Garbage
 * collection"). Snapshots that can still commit all start above the low watermark, so for each column:
 * <ul>
 *   <li>versions whose writer ({@link Timestamps#writerOf}: a transaction's checkpoint versions are its own) started
 *       above the low watermark are kept as they are;</li>
 *   <li>a version at or below it whose writer never committed (aborted, crashed, invalidated) is dropped; a writer
 *       still undecided is invalidated first, exactly as a reader would;</li>
 *   <li>the newest version committed at or below the low watermark is what every such snapshot reads there, so
 *       every older version is dropped; that newest version is dropped too when it is a deletion and the
 *       compaction sees all files (HBase drops delete markers then as well);</li>
 *   <li>a committed version that lacks its shadow cell gets one, so nobody asks the commit table again; a legacy
 *       write (stored before the table was converted, {@code io.tidemark.visibility.Conversion}) counts as
 *       committed at its own version and gets none.</li>
 * </ul>
 * A version whose writer cannot be decided now (commit table unreachable) is kept, and decides nothing.
 * HBase delete markers, Tidemark metadata other than shadow cells and tombstones, and non-Tidemark cells pass
 * through untouched. Writers are decided by the read rule ({@link WriterResolver#forCompaction}).
 */
final class VersionCollector {

    private static final Logger LOG = LoggerFactory.getLogger(VersionCollector.class);

    private final long lowWatermark;
    private final boolean allFiles;
    private final WriterResolver writers;
    private final RegionMetrics metrics;

    /** @param metrics told how many versions each column lost */
    VersionCollector(long lowWatermark, boolean allFiles, WriterResolver writers, RegionMetrics metrics) {
        this.lowWatermark = lowWatermark;
        this.allFiles = allFiles;
        this.writers = writers;
        this.metrics = metrics;
    }

    /** The cells of one row (sorted) that survive, plus the shadow cells to add, sorted. */
    List<Cell> collect(List<Cell> rowCells) {
        List<ColumnVersions> columns = ColumnVersions.partition(rowCells);
        if (columns.isEmpty()) {
            return rowCells;
        }
        Map<ColumnKey, Set<Long>> dropped = new HashMap<>();
        List<Cell> survivors = new ArrayList<>(rowCells.size());
        for (ColumnVersions column : columns) {
            Set<Long> drop = collectColumn(column, survivors);
            metrics.collectedVersions(drop.size());
            dropped.put(column.key(), drop);
        }
        for (Cell c : rowCells) {
            if (!isDropped(c, dropped)) {
                survivors.add(c);
            }
        }
        survivors.sort(CellComparator.getInstance());
        return survivors;
    }

    /** Whether the cell belongs to a dropped version of its column (only data, tombstones and shadow cells can). */
    private static boolean isDropped(Cell cell, Map<ColumnKey, Set<Long>> dropped) {
        if (cell.getType() != Cell.Type.Put) {
            return false;
        }
        ColumnKey column = ColumnKey.of(cell);
        return column != null && dropped.getOrDefault(column, Set.of()).contains(cell.getTimestamp());
    }

    /** The versions of the column to drop; adds missing shadow cells of committed versions to {@code added}. */
    private Set<Long> collectColumn(ColumnVersions column, List<Cell> added) {
        Set<Long> drop = new HashSet<>();
        List<Cell> shadows = new ArrayList<>();
        Long newestBelow = null;
        for (long version : column.writtenVersions()) {
            if (Timestamps.writerOf(version) > lowWatermark) {
                continue;
            }
            if (newestBelow != null) {
                drop.add(version);
                continue;
            }
            Long commit = column.commitTimestampAt(version);
            if (commit == null) {
                WriterOutcome writer;
                try {
                    writer = writers.outcome(column, version);
                } catch (IOException e) {
                    // Undecidable now (commit table unreachable): keep the version; a later compaction decides.
                    LOG.debug("keeping version {} of {}: {}", version, Bytes.toStringBinary(column.row()),
                            e.toString());
                    continue;
                }
                if (writer.isPending()) {
                    // Only a resolver that reports pending writers answers this: keep the version, decide nothing.
                    continue;
                }
                if (!writer.isCommitted()) {
                    drop.add(version);
                    continue;
                }
                commit = writer.commitTimestamp();
                // A legacy write (stored before the table became transactional) is committed at its own version
                // by the read rule alone: it gets no shadow cell.
                if (!writer.isLegacy()) {
                    shadows.add(new KeyValue(column.row(), column.family(),
                            CellEncoding.shadowQualifier(column.qualifier()), version, KeyValue.Type.Put,
                            CellEncoding.encodeCommitTimestamp(commit)));
                }
            }
            if (commit <= lowWatermark) {
                newestBelow = version;
                if (allFiles && column.isDeletionAt(version)) {
                    drop.add(version);
                }
            }
        }
        if (newestBelow != null) {
            for (long version : column.shadowVersions()) {
                if (version < newestBelow) {
                    drop.add(version);
                }
            }
        }
        for (Cell shadow : shadows) {
            if (!drop.contains(shadow.getTimestamp())) {
                added.add(shadow);
            }
        }
        return drop;
    }
}
