package io.tidemark.ycsb;

import site.ycsb.generator.ConstantIntegerGenerator;
import site.ycsb.generator.NumberGenerator;
import site.ycsb.generator.ZipfianGenerator;

/**
 * How many operations a transaction of {@link TransactionalWorkload} runs ({@value #PROPERTY}): the paper's mix, a
 * Zipfian distribution with theta {@value #ZIPF_THETA} over 1..{@value #ZIPF_MAX} (YCSB's generator, which follows
 * Gray et al. like the paper: about 63% of transactions run at most 3 operations, about 3% run 10), or a fixed size.
 * Thread-safe.
 */
final class TransactionSizes {

    static final String PROPERTY = "tidemark.txsize";
    static final String ZIPF = "zipf";
    static final double ZIPF_THETA = 0.99;
    static final int ZIPF_MAX = 10;

    private final NumberGenerator sizes;
    private final int max;

    private TransactionSizes(NumberGenerator sizes, int max) {
        this.sizes = sizes;
        this.max = max;
    }

    /** @throws IllegalArgumentException naming the property when {@code value} is neither zipf nor a size */
    static TransactionSizes parse(String value) {
        String v = value == null ? ZIPF : value.trim();
        if (v.equalsIgnoreCase(ZIPF)) {
            return new TransactionSizes(new ZipfianGenerator(1, ZIPF_MAX, ZIPF_THETA), ZIPF_MAX);
        }
        int fixed;
        try {
            fixed = Integer.parseInt(v);
        } catch (NumberFormatException e) {
            fixed = 0;
        }
        if (fixed < 1) {
            throw new IllegalArgumentException(PROPERTY + " is '" + value + "'; use zipf (the paper's mix of 1 to "
                    + ZIPF_MAX + " operations) or a fixed number of operations per transaction, 1 or more");
        }
        return new TransactionSizes(new ConstantIntegerGenerator(fixed), fixed);
    }

    int next() {
        return sizes.nextValue().intValue();
    }

    /** The largest size {@link #next()} returns. */
    int max() {
        return max;
    }
}
