package io.tidemark.bench.txn;

import java.util.SplittableRandom;

/** What one benchmark transaction does: a fresh list of operations each time it is asked. Thread-safe. */
@FunctionalInterface
public interface TransactionShape {

    Operation[] next(SplittableRandom random);

    /** {@code size} operations on keys from {@code keys}, each a read with probability {@code readFraction}. */
    static TransactionShape mixed(int size, ZipfKeys keys, double readFraction) {
        if (size < 1) {
            throw new IllegalArgumentException("a transaction needs at least 1 operation, got " + size);
        }
        if (!(readFraction >= 0 && readFraction <= 1)) {
            throw new IllegalArgumentException("read fraction must be from 0 to 1, got " + readFraction);
        }
        return random -> {
            Operation[] ops = new Operation[size];
            for (int i = 0; i < size; i++) {
                ops[i] = new Operation(keys.next(random), random.nextDouble() < readFraction);
            }
            return ops;
        };
    }

    /** Reads one key, then updates the same key. */
    static TransactionShape readModifyWrite(ZipfKeys keys) {
        return random -> {
            int key = keys.next(random);
            return new Operation[] {Operation.read(key), Operation.update(key)};
        };
    }
}
