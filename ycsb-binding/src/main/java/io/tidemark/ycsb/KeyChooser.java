package io.tidemark.ycsb;

import site.ycsb.Utils;
import site.ycsb.generator.NumberGenerator;
import site.ycsb.generator.UniformLongGenerator;
import site.ycsb.generator.ZipfianGenerator;

/**
 * Picks the record a transaction's operation touches, among the {@code count} records from {@code first} on. Zipfian
 * popularity is spread over the key space by hashing (as YCSB's scrambled Zipfian does), so the hot records are not
 * neighbours and land on different regions, like the paper's hash-partitioned keys. Thread-safe.
 */
final class KeyChooser {

    private final long first;
    private final long count;
    private final NumberGenerator ranks;
    private final boolean scramble;

    private KeyChooser(long first, long count, NumberGenerator ranks, boolean scramble) {
        this.first = first;
        this.count = count;
        this.ranks = ranks;
        this.scramble = scramble;
    }

    static KeyChooser zipfian(long first, long count, double theta) {
        return new KeyChooser(first, count, new ZipfianGenerator(0, count - 1, theta), true);
    }

    static KeyChooser uniform(long first, long count) {
        return new KeyChooser(first, count, new UniformLongGenerator(0, count - 1), false);
    }

    long next() {
        long rank = ranks.nextValue().longValue();
        return first + (scramble ? Math.floorMod(Utils.fnvhash64(rank), count) : rank);
    }
}
