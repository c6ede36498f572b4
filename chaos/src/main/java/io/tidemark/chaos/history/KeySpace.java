package io.tidemark.chaos.history;

import java.util.ArrayList;
import java.util.List;

/**
 * The keys of the checked table: a few rows, each with the same columns. Small on purpose, so that transactions
 * conflict and snapshots overlap often. Rows are named so that their byte order is their index order.
 *
 * @param rows row names in ascending order
 * @param valueColumns columns holding unique string values
 * @param counterColumn the column holding an 8-byte counter (written by increments only)
 */
public record KeySpace(List<String> rows, List<String> valueColumns, String counterColumn) {

    public KeySpace {
        rows = List.copyOf(rows);
        valueColumns = List.copyOf(valueColumns);
        for (int i = 1; i < rows.size(); i++) {
            if (rows.get(i - 1).compareTo(rows.get(i)) >= 0) {
                throw new IllegalArgumentException("rows must be in ascending order: " + rows);
            }
        }
    }

    /** {@code count} rows named {@code r00}, {@code r01}, ...; value columns {@code a}, {@code b}; counter {@code n}. */
    public static KeySpace of(int count) {
        if (count < 1 || count > 100) {
            throw new IllegalArgumentException("rows must be from 1 to 100, was " + count);
        }
        List<String> rows = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            rows.add(String.format("r%02d", i));
        }
        return new KeySpace(rows, List.of("a", "b"), "n");
    }

    /** Every column of a row: the value columns, then the counter. */
    public List<String> columns() {
        List<String> all = new ArrayList<>(valueColumns);
        all.add(counterColumn);
        return all;
    }

    /** Every key of {@code row}. */
    public List<Key> keysOf(String row) {
        List<Key> keys = new ArrayList<>();
        for (String c : columns()) {
            keys.add(new Key(row, c));
        }
        return keys;
    }

    /** Every key whose row is in {@code [fromRow, toRow)} ({@code toRow == null}: no upper end). */
    public List<Key> keysIn(String fromRow, String toRow) {
        List<Key> keys = new ArrayList<>();
        for (String row : rows) {
            if (row.compareTo(fromRow) >= 0 && (toRow == null || row.compareTo(toRow) < 0)) {
                keys.addAll(keysOf(row));
            }
        }
        return keys;
    }

    public boolean isCounter(Key key) {
        return key.column().equals(counterColumn);
    }

    /** How a counter value is written in the history: {@code #} and the number. */
    public static String counterValue(long value) {
        return "#" + value;
    }

    /** The number of a counter value ({@link #counterValue}); an absent counter is 0. */
    public static long counterOf(String value) {
        if (value == null) {
            return 0;
        }
        if (!value.startsWith("#")) {
            throw new IllegalArgumentException("not a counter value: " + value);
        }
        return Long.parseLong(value.substring(1));
    }
}
