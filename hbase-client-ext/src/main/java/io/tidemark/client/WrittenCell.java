package io.tidemark.client;

import io.tidemark.timestamp.Timestamps;

import java.util.Arrays;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * One user column a transaction wrote in one row, and what it wrote there at each of its versions (its start
 * timestamp and the versions of its checkpoints): a data cell, a tombstone, or both (a delete followed or preceded by
 * a put of the same column in one checkpoint); and whether any of those writes asked for conflict detection
 * (conflict-free writes do not).
 */
final class WrittenCell {

    private final byte[] row;
    private final byte[] family;
    private final byte[] qualifier;
    private final NavigableSet<Long> dataVersions = new TreeSet<>();
    private final NavigableSet<Long> tombstoneVersions = new TreeSet<>();
    private boolean conflictChecked;

    WrittenCell(byte[] row, byte[] family, byte[] qualifier) {
        this.row = row;
        this.family = family;
        this.qualifier = qualifier;
    }

    byte[] row() {
        return row;
    }

    byte[] family() {
        return family;
    }

    byte[] qualifier() {
        return qualifier;
    }

    /** The versions at which a data cell was written, oldest first. */
    NavigableSet<Long> dataVersions() {
        return new TreeSet<>(dataVersions);
    }

    /** The versions at which a tombstone was written, oldest first. */
    NavigableSet<Long> tombstoneVersions() {
        return new TreeSet<>(tombstoneVersions);
    }

    /** Every version at which anything was written, oldest first. */
    NavigableSet<Long> versions() {
        NavigableSet<Long> all = new TreeSet<>(dataVersions);
        all.addAll(tombstoneVersions);
        return all;
    }

    boolean hasTombstoneAt(long version) {
        return tombstoneVersions.contains(version);
    }

    /** Moves the writes at {@link Timestamps#NONE} (before the transaction began) to {@code start}. */
    void rebase(long start) {
        if (dataVersions.remove(Timestamps.NONE)) {
            dataVersions.add(start);
        }
        if (tombstoneVersions.remove(Timestamps.NONE)) {
            tombstoneVersions.add(start);
        }
    }

    void markData(long version) {
        dataVersions.add(version);
    }

    void markTombstone(long version) {
        tombstoneVersions.add(version);
    }

    boolean isConflictChecked() {
        return conflictChecked;
    }

    void markConflictChecked() {
        conflictChecked = true;
    }

    /** Identity of the column: row, family and qualifier. */
    static final class Key {
        private final byte[] row;
        private final byte[] family;
        private final byte[] qualifier;
        private final int hash;

        Key(byte[] row, byte[] family, byte[] qualifier) {
            this.row = row;
            this.family = family;
            this.qualifier = qualifier;
            this.hash = 31 * (31 * Arrays.hashCode(row) + Arrays.hashCode(family)) + Arrays.hashCode(qualifier);
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Key)) {
                return false;
            }
            Key k = (Key) o;
            return hash == k.hash && Arrays.equals(row, k.row) && Arrays.equals(family, k.family)
                    && Arrays.equals(qualifier, k.qualifier);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
