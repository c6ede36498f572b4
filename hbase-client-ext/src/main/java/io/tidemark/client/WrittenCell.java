package io.tidemark.client;

import java.util.Arrays;

/**
 * One user column a transaction wrote in one row, and what it wrote there at its start timestamp: a data cell, a
 * tombstone, or both (a delete followed or preceded by a put of the same column); and whether any of those writes
 * asked for conflict detection (conflict-free writes do not).
 */
final class WrittenCell {

    private final byte[] row;
    private final byte[] family;
    private final byte[] qualifier;
    private boolean data;
    private boolean tombstone;
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

    boolean hasData() {
        return data;
    }

    boolean hasTombstone() {
        return tombstone;
    }

    void markData() {
        data = true;
    }

    void markTombstone() {
        tombstone = true;
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
