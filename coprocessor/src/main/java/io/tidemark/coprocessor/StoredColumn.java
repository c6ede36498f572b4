package io.tidemark.coprocessor;

import io.tidemark.encoding.CellEncoding;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.util.Bytes;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Every stored version of one user column of one row, as a region server sees it: data cells, tombstones and shadow
 * cells (see {@link CellEncoding}), keyed by version (the writer's start timestamp), newest first. A compaction sees
 * every version; a snapshot read fetches a few per qualifier first (see {@link #completeDownTo}).
 */
public final class StoredColumn {

    private final byte[] family;
    private final byte[] qualifier;
    private final NavigableMap<Long, Cell> data = new TreeMap<>(Comparator.reverseOrder());
    private final NavigableMap<Long, Cell> tombstones = new TreeMap<>(Comparator.reverseOrder());
    private final NavigableMap<Long, Cell> shadows = new TreeMap<>(Comparator.reverseOrder());

    private StoredColumn(byte[] family, byte[] qualifier) {
        this.family = family;
        this.qualifier = qualifier;
    }

    /**
     * Splits the cells of one row into user columns. Only {@link Cell.Type#Put} cells are accepted: callers pass
     * HBase delete markers on untouched.
     */
    public static List<StoredColumn> partition(List<Cell> rowCells) {
        Map<ColumnKey, StoredColumn> columns = new LinkedHashMap<>();
        for (Cell cell : rowCells) {
            byte[] q = cell.getQualifierArray();
            int off = cell.getQualifierOffset();
            int len = cell.getQualifierLength();
            boolean shadow = CellEncoding.isShadowQualifier(q, off, len);
            boolean tombstone = !shadow && CellEncoding.isTombstoneQualifier(q, off, len);
            byte[] family = CellUtil.cloneFamily(cell);
            byte[] userQualifier = shadow || tombstone ? CellEncoding.userQualifier(q, off, len)
                    : CellUtil.cloneQualifier(cell);
            StoredColumn column = columns.computeIfAbsent(new ColumnKey(family, userQualifier),
                    k -> new StoredColumn(family, userQualifier));
            NavigableMap<Long, Cell> target = shadow ? column.shadows : tombstone ? column.tombstones : column.data;
            // The newest cell of a version wins, as in HBase itself (cells arrive newest first within a version).
            target.putIfAbsent(cell.getTimestamp(), cell);
        }
        return new ArrayList<>(columns.values());
    }

    /** Identifies the user column a stored cell (data, tombstone or shadow cell) belongs to. */
    public static Object columnOf(Cell cell) {
        byte[] q = cell.getQualifierArray();
        int off = cell.getQualifierOffset();
        int len = cell.getQualifierLength();
        byte[] userQualifier = CellEncoding.isMetadataQualifier(q, off, len) ? CellEncoding.userQualifier(q, off, len)
                : CellUtil.cloneQualifier(cell);
        return new ColumnKey(CellUtil.cloneFamily(cell), userQualifier);
    }

    /** The key {@link #columnOf} returns for this column's cells. */
    public Object column() {
        return new ColumnKey(family, qualifier);
    }

    public byte[] family() {
        return family;
    }

    public byte[] qualifier() {
        return qualifier;
    }

    /**
     * The oldest version down to which the fetch is complete, when each qualifier was read with at most
     * {@code versionsPerRead} versions: a qualifier that returned that many may have older ones. Zero when every
     * version was fetched.
     */
    public long completeDownTo(int versionsPerRead) {
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
    public NavigableSet<Long> writtenVersions() {
        NavigableSet<Long> versions = new TreeSet<>(Comparator.reverseOrder());
        versions.addAll(data.keySet());
        versions.addAll(tombstones.keySet());
        return versions;
    }

    public Cell dataAt(long version) {
        return data.get(version);
    }

    public Cell tombstoneAt(long version) {
        return tombstones.get(version);
    }

    public Cell shadowAt(long version) {
        return shadows.get(version);
    }

    /** Versions that carry a shadow cell, newest first. */
    public NavigableSet<Long> shadowVersions() {
        return shadows.navigableKeySet();
    }

    /** The commit timestamp recorded by the shadow cell at {@code version}, or null when there is none. */
    public Long commitTimestampAt(long version) {
        Cell shadow = shadows.get(version);
        return shadow == null ? null : CellEncoding.decodeCommitTimestamp(shadow.getValueArray(),
                shadow.getValueOffset(), shadow.getValueLength());
    }

    /** Whether the version is a deletion: its tombstone deletes (rather than being cancelled by a later put). */
    public boolean isDeletionAt(long version) {
        Cell tombstone = tombstones.get(version);
        return tombstone != null && CellEncoding.isDeletingTombstone(tombstone.getValueArray(),
                tombstone.getValueOffset(), tombstone.getValueLength());
    }

    private static final class ColumnKey {
        private final byte[] family;
        private final byte[] qualifier;

        ColumnKey(byte[] family, byte[] qualifier) {
            this.family = family;
            this.qualifier = qualifier;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ColumnKey && Bytes.equals(family, ((ColumnKey) o).family)
                    && Bytes.equals(qualifier, ((ColumnKey) o).qualifier);
        }

        @Override
        public int hashCode() {
            return Objects.hash(Bytes.hashCode(family), Bytes.hashCode(qualifier));
        }
    }
}
