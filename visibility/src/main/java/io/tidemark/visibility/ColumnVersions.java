package io.tidemark.visibility;

import io.tidemark.encoding.CellEncoding;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The stored versions of one user column of one row: data cells, tombstones and shadow cells (see
 * {@link CellEncoding}), each keyed by version (the writer's start timestamp, or one of its checkpoint versions) and
 * ordered newest first.
 *
 * <p>Two cells of one kind at one version (a transaction that deleted, then put a column again rewrote its
 * tombstone as cancelled; a compaction may see both): the newer cell wins, as in HBase. "Newer" is HBase's order:
 * the cell with the higher sequence id, and among cells without one (the client's), the one HBase returned first.
 */
public final class ColumnVersions {

    private final byte[] row;
    private final ColumnKey key;
    private final NavigableMap<Long, Cell> data = new TreeMap<>(Comparator.reverseOrder());
    private final NavigableMap<Long, Cell> tombstones = new TreeMap<>(Comparator.reverseOrder());
    private final NavigableMap<Long, Cell> shadows = new TreeMap<>(Comparator.reverseOrder());

    private ColumnVersions(byte[] row, ColumnKey key) {
        this.row = row;
        this.key = key;
    }

    /**
     * Splits the cells of one row into user columns, in the order their first cells come. Only {@link Cell.Type#Put}
     * cells count (HBase delete markers keep HBase's meaning); Tidemark metadata other than shadow cells and
     * tombstones is passed over.
     */
    public static List<ColumnVersions> partition(List<Cell> rowCells) {
        Map<ColumnKey, ColumnVersions> columns = new LinkedHashMap<>();
        for (Cell cell : rowCells) {
            if (cell.getType() != Cell.Type.Put) {
                continue;
            }
            ColumnKey key = ColumnKey.of(cell);
            if (key == null) {
                continue;
            }
            columns.computeIfAbsent(key, k -> new ColumnVersions(CellUtil.cloneRow(cell), k)).add(cell);
        }
        return new ArrayList<>(columns.values());
    }

    private void add(Cell cell) {
        byte[] q = cell.getQualifierArray();
        int off = cell.getQualifierOffset();
        int len = cell.getQualifierLength();
        if (CellEncoding.isShadowQualifier(q, off, len)) {
            keepNewer(shadows, cell);
        } else if (CellEncoding.isTombstoneQualifier(q, off, len)) {
            keepNewer(tombstones, cell);
        } else {
            keepNewer(data, cell);
        }
    }

    private static void keepNewer(NavigableMap<Long, Cell> cells, Cell cell) {
        Cell present = cells.get(cell.getTimestamp());
        // HBase orders cells of one key by sequence id, highest (newest) first; equal means no order known.
        if (present == null || CellComparator.getInstance().compare(cell, present) < 0) {
            cells.put(cell.getTimestamp(), cell);
        }
    }

    public byte[] row() {
        return row;
    }

    public ColumnKey key() {
        return key;
    }

    public byte[] family() {
        return key.family();
    }

    public byte[] qualifier() {
        return key.qualifier();
    }

    /**
     * The oldest version down to which the fetch is complete, when each qualifier was read with at most
     * {@code versionsPerRead} versions: a qualifier that returned that many may have older ones that were not
     * fetched, so below its oldest fetched version nothing is known. 0 when every version was fetched.
     */
    public long completeDownTo(int versionsPerRead) {
        long boundary = Timestamps.NONE;
        if (data.size() >= versionsPerRead) {
            boundary = Math.max(boundary, data.lastKey());
        }
        if (tombstones.size() >= versionsPerRead) {
            boundary = Math.max(boundary, tombstones.lastKey());
        }
        return boundary;
    }

    /** The versions that carry a data cell or a tombstone, newest first. */
    public NavigableSet<Long> writtenVersions() {
        NavigableSet<Long> versions = new TreeSet<>(Comparator.reverseOrder());
        versions.addAll(data.keySet());
        versions.addAll(tombstones.keySet());
        return versions;
    }

    /** The versions that carry a shadow cell, newest first. */
    public NavigableSet<Long> shadowVersions() {
        return shadows.navigableKeySet();
    }

    /** The data cell at {@code version}, or null when there is none. */
    public @Nullable Cell dataAt(long version) {
        return data.get(version);
    }

    /** Whether the version is a deletion: its tombstone deletes (rather than being cancelled by a later put). */
    public boolean isDeletionAt(long version) {
        Cell tombstone = tombstones.get(version);
        return tombstone != null && CellEncoding.isDeletingTombstone(tombstone.getValueArray(),
                tombstone.getValueOffset(), tombstone.getValueLength());
    }

    /** Whether a committed write at {@code version} decides the column: it holds a value or deletes it. */
    public boolean decidesAt(long version) {
        return isDeletionAt(version) || data.containsKey(version);
    }

    /** The commit timestamp recorded by the shadow cell at {@code version}, or null when none was read. */
    public @Nullable Long commitTimestampAt(long version) {
        Cell shadow = shadows.get(version);
        return shadow == null ? null : CellEncoding.decodeCommitTimestamp(shadow.getValueArray(),
                shadow.getValueOffset(), shadow.getValueLength());
    }

    /**
     * The newest fast-path version ({@link Timestamps#isFastPathVersion}; a fast-path write always stores its shadow
     * cell with its data or tombstone), or 0 when there is none. Committed checkpoint versions are not fast-path ones.
     */
    public long newestFastPathVersion() {
        for (long version : shadows.keySet()) {
            if (Timestamps.isFastPathVersion(version) && (data.containsKey(version)
                    || tombstones.containsKey(version))) {
                return version;
            }
        }
        return Timestamps.NONE;
    }
}
