package io.tidemark.coprocessor.compaction;

import io.tidemark.coprocessor.StoredColumn;
import io.tidemark.coprocessor.WriterOutcomes;
import io.tidemark.encoding.CellEncoding;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
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
 *   <li>versions above the low watermark are kept as they are;</li>
 *   <li>a version at or below it whose writer never committed (aborted, crashed, invalidated) is dropped; a writer
 *       still undecided is invalidated first, exactly as a reader would;</li>
 *   <li>the newest version committed at or below the low watermark is what every such snapshot reads there, so
 *       every older version is dropped; that newest version is dropped too when it is a deletion and the
 *       compaction sees all files (HBase drops delete markers then as well);</li>
 *   <li>a committed version that lacks its shadow cell gets one, so nobody asks the commit table again.</li>
 * </ul>
 * A version whose writer cannot be decided now (commit table unreachable) is kept, and decides nothing.
 * HBase delete markers and non-Tidemark cells pass through untouched.
 */
final class VersionCollector {

    private static final Logger LOG = LoggerFactory.getLogger(VersionCollector.class);

    private final long lowWatermark;
    private final boolean allFiles;
    private final WriterOutcomes writers;

    VersionCollector(long lowWatermark, boolean allFiles, WriterOutcomes writers) {
        this.lowWatermark = lowWatermark;
        this.allFiles = allFiles;
        this.writers = writers;
    }

    /** The cells of one row (sorted) that survive, plus the shadow cells to add, sorted. */
    List<Cell> collect(List<Cell> rowCells) {
        List<Cell> puts = new ArrayList<>(rowCells.size());
        for (Cell c : rowCells) {
            if (c.getType() == Cell.Type.Put) {
                puts.add(c);
            }
        }
        if (puts.isEmpty()) {
            return rowCells;
        }
        byte[] row = CellUtil.cloneRow(puts.get(0));
        Map<Object, Set<Long>> dropped = new HashMap<>();
        List<Cell> survivors = new ArrayList<>(rowCells.size());
        for (StoredColumn column : StoredColumn.partition(puts)) {
            dropped.put(column.column(), collectColumn(row, column, survivors));
        }
        for (Cell c : rowCells) {
            if (c.getType() != Cell.Type.Put
                    || !dropped.get(StoredColumn.columnOf(c)).contains(c.getTimestamp())) {
                survivors.add(c);
            }
        }
        survivors.sort(CellComparator.getInstance());
        return survivors;
    }

    /** The versions of the column to drop; adds missing shadow cells of committed versions to {@code added}. */
    private Set<Long> collectColumn(byte[] row, StoredColumn column, List<Cell> added) {
        Set<Long> drop = new HashSet<>();
        List<Cell> shadows = new ArrayList<>();
        Long newestBelow = null;
        for (long version : column.writtenVersions()) {
            if (version > lowWatermark) {
                continue;
            }
            if (newestBelow != null) {
                drop.add(version);
                continue;
            }
            Long commit = column.commitTimestampAt(version);
            if (commit == null) {
                long decided;
                try {
                    decided = writers.commitTimestampOf(version, row, column.family(), column.qualifier(), true);
                } catch (IOException e) {
                    // Undecidable now (commit table unreachable): keep the version; a later compaction decides.
                    LOG.debug("keeping version {} of {}: {}", version, Bytes.toStringBinary(row), e.toString());
                    continue;
                }
                if (decided == WriterOutcomes.NOT_COMMITTED) {
                    drop.add(version);
                    continue;
                }
                commit = decided;
                shadows.add(new KeyValue(row, column.family(), CellEncoding.shadowQualifier(column.qualifier()),
                        version, KeyValue.Type.Put, CellEncoding.encodeCommitTimestamp(commit)));
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
