package io.tidemark.bench.txn;

/** One data access of a benchmark transaction: read or update one key. */
public record Operation(int key, boolean read) {

    public static Operation read(int key) {
        return new Operation(key, true);
    }

    public static Operation update(int key) {
        return new Operation(key, false);
    }
}
