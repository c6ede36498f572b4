package io.tidemark.chaos.history;

/** One cell of the checked table, named {@code row:column} (the family is fixed). */
public record Key(String row, String column) implements Comparable<Key> {

    public Key {
        if (row.isEmpty() || column.isEmpty() || row.contains(":") || column.contains(":")) {
            throw new IllegalArgumentException("a key needs a non-empty row and column without ':', got " + row
                    + ":" + column);
        }
    }

    /** Parses {@code row:column}. */
    public static Key parse(String text) {
        int colon = text.indexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("not a key (row:column): " + text);
        }
        return new Key(text.substring(0, colon), text.substring(colon + 1));
    }

    @Override
    public int compareTo(Key other) {
        int byRow = row.compareTo(other.row);
        return byRow != 0 ? byRow : column.compareTo(other.column);
    }

    @Override
    public String toString() {
        return row + ":" + column;
    }
}
