package io.tidemark.chaos.history;

import java.util.Map;

/** One step of a transaction, as the client saw it. Values are strings; {@code null} means absent (or deleted). */
public sealed interface Op {

    /** A read of one key and the value it returned. */
    record Read(Key key, String value) implements Op {
    }

    /** A write of one key; {@code value == null} is a delete. */
    record Write(Key key, String value) implements Op {
    }

    /**
     * A scan over the rows in {@code [fromRow, toRow)} ({@code toRow == null}: to the end of the table) and every
     * key it returned with its value; keys in the range that are not in {@code seen} were absent.
     */
    record Scan(String fromRow, String toRow, Map<Key, String> seen) implements Op {

        @Override
        public String toString() {
            return "scan [" + fromRow + ", " + (toRow == null ? "end" : toRow) + ")";
        }
    }
}
