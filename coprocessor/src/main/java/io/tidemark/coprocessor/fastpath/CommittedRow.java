package io.tidemark.coprocessor.fastpath;

import io.tidemark.encoding.CellEncoding;
import io.tidemark.fastpath.FastPathConflictException;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The latest committed state of one row: for each column its newest committed write (a value or a deletion), the
 * row version (the largest commit timestamp among those writes) and the writers that are not resolved yet.
 *
 * <p>Within one column, versions are walked newest first and the first committed one decides; versions below it
 * cannot matter (first-committer-wins orders writes of one column by version, and the fast-path checks keep that
 * true across both paths). A tentative version with no decision is pending if it is newer than the row's newest
 * fast-path version; an older one can never commit, because the fast-path write above it would have aborted on it
 * (docs/fast-path.md, "Reading a row").
 */
final class CommittedRow {

    /** Versions of each qualifier read first; enough for rows mostly written by the fast path. */
    static final int WINDOW = 8;

    private final long version;
    private final NavigableMap<byte[], Cell> values;
    private final List<Long> pendingWriters;

    private CommittedRow(long version, NavigableMap<byte[], Cell> values, List<Long> pendingWriters) {
        this.version = version;
        this.values = values;
        this.pendingWriters = pendingWriters;
    }

    /**
     * Reads the newest {@link #WINDOW} versions of every column first; only when they cannot decide (a column whose
     * fetched versions all lie above the row's newest fast-path version and decide nothing) is the whole row read.
     * A counter updated only through the fast path is thus read in constant time, however long its history.
     */
    static CommittedRow read(Region region, byte[] row, WriterStatus writers) throws IOException {
        CommittedRow fromWindow = resolve(region, row, writers, region.get(new Get(row).readVersions(WINDOW)),
                WINDOW);
        if (fromWindow != null) {
            return fromWindow;
        }
        return resolve(region, row, writers, region.get(new Get(row).readAllVersions()), Integer.MAX_VALUE);
    }

    /** The committed row from the fetched versions, or null when they are not enough to decide it. */
    private static CommittedRow resolve(Region region, byte[] row, WriterStatus writers, Result raw,
            int versionsPerQualifier) throws IOException {
        Map<byte[], Column> columns = new TreeMap<>(Bytes.BYTES_COMPARATOR);
        long newestFastPath = Timestamps.NONE;
        for (Cell cell : raw.rawCells()) {
            Column column = columns.computeIfAbsent(columnKey(cell), k -> Column.of(cell));
            column.add(cell);
        }
        for (Column column : columns.values()) {
            newestFastPath = Math.max(newestFastPath, column.newestFastPathVersion());
        }
        for (Column column : columns.values()) {
            // Unfetched versions above the newest fast-path version could be pending writers.
            if (column.completeDownTo(versionsPerQualifier) > newestFastPath) {
                return null;
            }
        }
        long rowVersion = newestFastPath;
        NavigableMap<byte[], Cell> values = new TreeMap<>(Bytes.BYTES_COMPARATOR);
        List<Long> pending = new ArrayList<>();
        for (Map.Entry<byte[], Column> e : columns.entrySet()) {
            Column column = e.getValue();
            long completeDownTo = column.completeDownTo(versionsPerQualifier);
            boolean decided = false;
            for (long v : column.candidateVersions()) {
                if (v < completeDownTo) {
                    break;
                }
                long commit = column.commitTimestamp(v, region, row, writers);
                if (commit == WriterStatus.PENDING) {
                    if (v > newestFastPath) {
                        pending.add(v);
                    }
                    continue;
                }
                if (commit == WriterStatus.NOT_COMMITTED) {
                    continue;
                }
                rowVersion = Math.max(rowVersion, commit);
                if (column.decides(v)) {
                    Cell data = column.valueAt(v);
                    if (data != null) {
                        values.put(e.getKey(), data);
                    }
                    decided = true;
                    break;
                }
            }
            if (!decided && completeDownTo > 0) {
                return null;
            }
        }
        return new CommittedRow(rowVersion, values, pending);
    }

    /** The largest commit timestamp of a committed write to the row, or 0 when it has none. */
    long version() {
        return version;
    }

    /** Aborts a fast-path write (or read-for-update) when a generic transaction's write to the row is undecided. */
    void requireNoPendingWriter(byte[] row, String operation) throws FastPathConflictException {
        if (!pendingWriters.isEmpty()) {
            throw new FastPathConflictException("fast-path " + operation + " of row " + Bytes.toStringBinary(row)
                    + " aborted: transaction " + pendingWriters.get(0) + " wrote the row and has neither committed nor"
                    + " aborted yet; retry (a generic transaction would resolve it)");
        }
    }

    /** The latest committed value of the column, or null when it has none or it was deleted. */
    Cell value(byte[] family, byte[] qualifier) {
        return values.get(columnKey(family, qualifier));
    }

    /** The latest committed values (not sorted). */
    List<Cell> values() {
        return new ArrayList<>(values.values());
    }

    static byte[] columnKey(byte[] family, byte[] qualifier) {
        return Bytes.add(Bytes.toBytes(family.length), family, qualifier);
    }

    private static byte[] columnKey(Cell cell) {
        byte[] family = CellUtil.cloneFamily(cell);
        byte[] q = cell.getQualifierArray();
        int off = cell.getQualifierOffset();
        int len = cell.getQualifierLength();
        byte[] userQualifier = CellEncoding.isMetadataQualifier(q, off, len) ? CellEncoding.userQualifier(q, off, len)
                : CellUtil.cloneQualifier(cell);
        return columnKey(family, userQualifier);
    }

    /** The versions of one user column: data cells, tombstones and shadow cells. */
    private static final class Column {
        private final byte[] family;
        private final byte[] qualifier;
        private final NavigableMap<Long, Cell> data = new TreeMap<>();
        private final NavigableMap<Long, Cell> tombstones = new TreeMap<>();
        private final Map<Long, Long> shadows = new TreeMap<>();

        private Column(byte[] family, byte[] qualifier) {
            this.family = family;
            this.qualifier = qualifier;
        }

        static Column of(Cell cell) {
            byte[] q = cell.getQualifierArray();
            int off = cell.getQualifierOffset();
            int len = cell.getQualifierLength();
            return new Column(CellUtil.cloneFamily(cell), CellEncoding.isMetadataQualifier(q, off, len)
                    ? CellEncoding.userQualifier(q, off, len) : CellUtil.cloneQualifier(cell));
        }

        void add(Cell cell) {
            byte[] q = cell.getQualifierArray();
            int off = cell.getQualifierOffset();
            int len = cell.getQualifierLength();
            long v = cell.getTimestamp();
            if (CellEncoding.isShadowQualifier(q, off, len)) {
                shadows.put(v, CellEncoding.decodeCommitTimestamp(cell.getValueArray(), cell.getValueOffset(),
                        cell.getValueLength()));
            } else if (CellEncoding.isTombstoneQualifier(q, off, len)) {
                tombstones.put(v, cell);
            } else {
                data.put(v, cell);
            }
        }

        /**
         * The oldest version down to which the fetch is complete: a qualifier that returned as many versions as asked
         * may have older ones. Zero when every version was fetched.
         */
        long completeDownTo(int versionsPerQualifier) {
            long boundary = 0;
            if (data.size() >= versionsPerQualifier) {
                boundary = Math.max(boundary, data.firstKey());
            }
            if (tombstones.size() >= versionsPerQualifier) {
                boundary = Math.max(boundary, tombstones.firstKey());
            }
            return boundary;
        }

        NavigableSet<Long> candidateVersions() {
            NavigableSet<Long> versions = new TreeSet<>(Comparator.reverseOrder());
            versions.addAll(data.keySet());
            versions.addAll(tombstones.keySet());
            return versions;
        }

        /** Newest committed fast-path version (low bits set; always written with its shadow cell), or 0. */
        long newestFastPathVersion() {
            long newest = Timestamps.NONE;
            for (long v : shadows.keySet()) {
                if ((v & Timestamps.LOW_MASK) != 0 && (data.containsKey(v) || tombstones.containsKey(v))) {
                    newest = Math.max(newest, v);
                }
            }
            return newest;
        }

        long commitTimestamp(long version, Region region, byte[] row, WriterStatus writers) throws IOException {
            Long shadow = shadows.get(version);
            if (shadow != null) {
                return shadow;
            }
            return writers.resolve(version, v -> readShadowCell(region, row, v));
        }

        /** Whether the committed write at {@code version} decides the column: a deletion or a value. */
        boolean decides(long version) {
            Cell tombstone = tombstones.get(version);
            return data.containsKey(version) || (tombstone != null && isDeleting(tombstone));
        }

        /** The value written at {@code version}, or null when the write deleted the column. */
        Cell valueAt(long version) {
            Cell tombstone = tombstones.get(version);
            if (tombstone != null && isDeleting(tombstone)) {
                return null;
            }
            return data.get(version);
        }

        private Long readShadowCell(Region region, byte[] row, long version) throws IOException {
            byte[] shadowQualifier = CellEncoding.shadowQualifier(qualifier);
            Result r = region.get(new Get(row).addColumn(family, shadowQualifier).setTimestamp(version));
            byte[] value = r.getValue(family, shadowQualifier);
            return value == null ? null : CellEncoding.decodeCommitTimestamp(value, 0, value.length);
        }

        private static boolean isDeleting(Cell tombstone) {
            return CellEncoding.isDeletingTombstone(tombstone.getValueArray(), tombstone.getValueOffset(),
                    tombstone.getValueLength());
        }
    }
}
