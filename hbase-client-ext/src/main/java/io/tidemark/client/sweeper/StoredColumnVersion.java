package io.tidemark.client.sweeper;

import io.tidemark.encoding.CellEncoding;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.TimestampsFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * What one writer left in one user column of one row at one of its versions (the writer's start timestamp, or one of
 * its checkpoint versions): the data cell, the tombstone and the shadow cell, as stored. Metadata cells other than
 * shadow cells and tombstones are not part of it: whoever reads these passes them through untouched.
 */
public final class StoredColumnVersion {

    private final byte[] row;
    private final byte[] family;
    private final byte[] qualifier;
    private final long version;
    private boolean data;
    private boolean tombstone;
    private @Nullable Long shadowCommit;

    private StoredColumnVersion(byte[] row, byte[] family, byte[] qualifier, long version) {
        this.row = row;
        this.family = family;
        this.qualifier = qualifier;
        this.version = version;
    }

    /**
     * A scan reading every cell stored at exactly the versions of the given writers (each one's start timestamp and
     * checkpoint versions, {@link #versionsOf}) and nothing else: its time range lets HBase skip store files outside
     * it, and a {@link TimestampsFilter} drops the other versions (fast-path writes among them) in the region server.
     */
    public static Scan scanAt(Collection<Long> writers) {
        if (writers.isEmpty()) {
            throw new IllegalArgumentException("a version scan needs at least one writer");
        }
        List<Long> sorted = new ArrayList<>();
        for (long writer : new TreeSet<>(writers)) {
            sorted.addAll(versionsOf(writer));
        }
        try {
            return new Scan().setTimeRange(sorted.get(0), sorted.get(sorted.size() - 1) + 1).readAllVersions()
                    .setFilter(new TimestampsFilter(sorted)).setCaching(500);
        } catch (IOException e) {
            throw new IllegalArgumentException("bad version range " + sorted, e);
        }
    }

    /** The versions a transaction that started at {@code writer} may have written at, oldest first. */
    public static List<Long> versionsOf(long writer) {
        List<Long> versions = new ArrayList<>(Timestamps.MAX_CHECKPOINTS + 1);
        for (int k = 0; k <= Timestamps.MAX_CHECKPOINTS; k++) {
            versions.add(Timestamps.checkpointVersion(writer, k));
        }
        return versions;
    }

    /** Splits a row read with every version into its column versions, in the order the cells came. */
    public static List<StoredColumnVersion> of(Result row) {
        Map<String, StoredColumnVersion> versions = new LinkedHashMap<>();
        for (Cell cell : row.rawCells()) {
            byte[] q = cell.getQualifierArray();
            int off = cell.getQualifierOffset();
            int len = cell.getQualifierLength();
            boolean shadow = CellEncoding.isShadowQualifier(q, off, len);
            boolean tombstone = CellEncoding.isTombstoneQualifier(q, off, len);
            if (!shadow && !tombstone && CellEncoding.isMetadataQualifier(q, off, len)) {
                continue;
            }
            byte[] family = CellUtil.cloneFamily(cell);
            byte[] userQualifier = shadow || tombstone ? CellEncoding.userQualifier(q, off, len)
                    : CellUtil.cloneQualifier(cell);
            long version = cell.getTimestamp();
            StoredColumnVersion column = versions.computeIfAbsent(Bytes.toStringBinary(family) + "/"
                    + Bytes.toStringBinary(userQualifier) + "@" + version,
                    k -> new StoredColumnVersion(row.getRow(), family, userQualifier, version));
            if (shadow) {
                column.shadowCommit = CellEncoding.decodeCommitTimestamp(cell.getValueArray(), cell.getValueOffset(),
                        cell.getValueLength());
            } else if (tombstone) {
                column.tombstone = true;
            } else {
                column.data = true;
            }
        }
        return new ArrayList<>(versions.values());
    }

    public byte[] row() {
        return row;
    }

    public byte[] family() {
        return family;
    }

    /** The user qualifier. */
    public byte[] qualifier() {
        return qualifier;
    }

    /** The version: the writer's start timestamp or one of its checkpoint versions. */
    public long version() {
        return version;
    }

    /** The start timestamp of the writer ({@link Timestamps#writerOf} the version). */
    public long writer() {
        return Timestamps.writerOf(version);
    }

    /** Whether the writer's data cell is stored. */
    public boolean hasData() {
        return data;
    }

    /** Whether the writer's tombstone is stored. */
    public boolean hasTombstone() {
        return tombstone;
    }

    /** Whether the shadow cell is stored: then the writer committed, at {@link #shadowCommit()}. */
    public boolean hasShadowCell() {
        return shadowCommit != null;
    }

    /** The commit timestamp in the shadow cell; only when {@link #hasShadowCell()}. */
    public long shadowCommit() {
        if (shadowCommit == null) {
            throw new IllegalStateException("no shadow cell at " + this);
        }
        return shadowCommit;
    }

    /** A data cell or tombstone without a shadow cell. */
    public boolean isTentative() {
        return shadowCommit == null && (data || tombstone);
    }

    @Override
    public String toString() {
        return Bytes.toStringBinary(row) + "/" + Bytes.toStringBinary(family) + ":" + Bytes.toStringBinary(qualifier)
                + "@" + version;
    }
}
