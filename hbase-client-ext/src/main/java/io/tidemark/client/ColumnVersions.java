package io.tidemark.client;

import io.tidemark.encoding.CellEncoding;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The fetched versions of one user column of one row, split into data cells, tombstones and shadow cells (see
 * {@link CellEncoding}), each keyed by version, newest first.
 */
final class ColumnVersions {

    private final byte[] family;
    private final byte[] qualifier;
    private final NavigableMap<Long, Cell> data = new TreeMap<>(Comparator.reverseOrder());
    private final NavigableMap<Long, Cell> tombstones = new TreeMap<>(Comparator.reverseOrder());
    private final Map<Long, Long> commitTimestamps = new HashMap<>();

    private ColumnVersions(byte[] family, byte[] qualifier) {
        this.family = family;
        this.qualifier = qualifier;
    }

    /** Splits a raw HBase row into its user columns. */
    static Collection<ColumnVersions> partition(List<Cell> cells) {
        Map<WrittenCell.Key, ColumnVersions> columns = new LinkedHashMap<>();
        for (Cell cell : cells) {
            byte[] q = cell.getQualifierArray();
            int off = cell.getQualifierOffset();
            int len = cell.getQualifierLength();
            boolean shadow = CellEncoding.isShadowQualifier(q, off, len);
            boolean tombstone = !shadow && CellEncoding.isTombstoneQualifier(q, off, len);
            byte[] family = CellUtil.cloneFamily(cell);
            byte[] userQualifier = shadow || tombstone ? CellEncoding.userQualifier(q, off, len)
                    : CellUtil.cloneQualifier(cell);
            ColumnVersions column = columns.computeIfAbsent(new WrittenCell.Key(null, family, userQualifier),
                    k -> new ColumnVersions(family, userQualifier));
            long version = cell.getTimestamp();
            if (shadow) {
                column.commitTimestamps.put(version, CellEncoding.decodeCommitTimestamp(cell.getValueArray(),
                        cell.getValueOffset(), cell.getValueLength()));
            } else if (tombstone) {
                column.tombstones.put(version, cell);
            } else {
                column.data.put(version, cell);
            }
        }
        return new ArrayList<>(columns.values());
    }

    byte[] family() {
        return family;
    }

    byte[] qualifier() {
        return qualifier;
    }

    /**
     * The oldest version down to which the fetch is complete. A qualifier that returned {@code versionsPerRead}
     * versions may have older ones that were not fetched; below its oldest fetched version nothing is known for sure.
     * Zero when every version was fetched.
     */
    long completeDownTo(int versionsPerRead) {
        long boundary = 0;
        if (data.size() >= versionsPerRead) {
            boundary = Math.max(boundary, data.lastKey());
        }
        if (tombstones.size() >= versionsPerRead) {
            boundary = Math.max(boundary, tombstones.lastKey());
        }
        return boundary;
    }

    /** Versions that carry a data cell or a tombstone, newest first. */
    NavigableSet<Long> candidateVersions() {
        NavigableSet<Long> versions = new TreeSet<>(Comparator.reverseOrder());
        versions.addAll(data.keySet());
        versions.addAll(tombstones.keySet());
        return versions;
    }

    Cell dataAt(long version) {
        return data.get(version);
    }

    Cell tombstoneAt(long version) {
        return tombstones.get(version);
    }

    /** The commit timestamp from the shadow cell at {@code version}, or null when none was fetched. */
    Long commitTimestampAt(long version) {
        return commitTimestamps.get(version);
    }
}
