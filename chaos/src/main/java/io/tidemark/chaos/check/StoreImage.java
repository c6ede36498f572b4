package io.tidemark.chaos.check;

import io.tidemark.chaos.history.Key;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * What the store holds after the run, read raw (every version, with metadata): the versions of every key, the commit
 * table's records, and the low watermark compaction collected garbage with.
 */
public final class StoreImage {

    /** Commit-table value of an invalidated transaction in {@link #commitRecords}. */
    public static final long INVALIDATED = -1;

    private final Map<Key, NavigableMap<Long, StoredVersion>> versions = new HashMap<>();
    private final Map<Long, Long> commitRecords = new HashMap<>();
    private long lowWatermark;

    public void add(Key key, StoredVersion version) {
        versions.computeIfAbsent(key, k -> new TreeMap<>()).put(version.version(), version);
    }

    /** Records the commit table's row of {@code start}: its commit timestamp, or {@link #INVALIDATED}. */
    public void addCommitRecord(long start, long commitOrInvalidated) {
        commitRecords.put(start, commitOrInvalidated);
    }

    public void lowWatermark(long value) {
        this.lowWatermark = value;
    }

    public long lowWatermark() {
        return lowWatermark;
    }

    /** The versions of {@code key}, oldest first; empty when none is stored. */
    public NavigableMap<Long, StoredVersion> versionsOf(Key key) {
        NavigableMap<Long, StoredVersion> v = versions.get(key);
        return v == null ? Collections.emptyNavigableMap() : Collections.unmodifiableNavigableMap(v);
    }

    public Iterable<Key> keys() {
        return Collections.unmodifiableSet(versions.keySet());
    }

    /** The start timestamps the commit table has a row for. */
    public Iterable<Long> commitRecordStarts() {
        return Collections.unmodifiableSet(commitRecords.keySet());
    }

    /** The commit timestamp, {@link #INVALIDATED}, or {@code null} when the commit table has no row for it. */
    public Long commitRecord(long start) {
        return commitRecords.get(start);
    }

    /**
     * The commit timestamp of the writer of {@code version}, as a reader would resolve it: the shadow cell, else a
     * commit record; 0 when neither says it committed.
     */
    public long committedAt(Key key, long version) {
        StoredVersion v = versionsOf(key).get(version);
        if (v != null && v.hasShadowCell()) {
            return v.shadowCommit();
        }
        Long record = commitRecords.get(version);
        return record != null && record > 0 ? record : 0;
    }

    /**
     * Whether compaction may legitimately have removed the version of {@code key} at {@code version}: a newer version
     * committed at or below the low watermark is stored, and compaction keeps only the newest such version.
     */
    public boolean mayHaveBeenCollected(Key key, long version) {
        for (StoredVersion newer : versionsOf(key).tailMap(version, false).values()) {
            long commit = committedAt(key, newer.version());
            if (commit > 0 && commit <= lowWatermark) {
                return true;
            }
        }
        return false;
    }
}
