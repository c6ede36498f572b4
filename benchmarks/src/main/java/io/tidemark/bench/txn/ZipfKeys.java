package io.tidemark.bench.txn;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Draws keys 0..n-1 with Zipfian popularity: the key of rank r (from 0) is chosen with probability proportional to
 * 1/(r+1)^theta; theta 0 is uniform. Sampling inverts the exact cumulative distribution, so any theta works (YCSB's
 * approximate generator is only meant for theta below 1, and the contention benchmark goes up to 1.4). Ranks are
 * mapped to keys through a fixed random permutation, so the hot keys are not neighbours in the table. Thread-safe.
 */
public final class ZipfKeys {

    /** Fixed, so that every run of a benchmark has the same hot keys. */
    private static final long PERMUTATION_SEED = 0x7164656d61726bL;

    private final double theta;
    private final double[] cumulative;
    private final int[] keyOfRank;

    private ZipfKeys(double theta, int keys) {
        this.theta = theta;
        this.cumulative = new double[keys];
        double sum = 0;
        for (int rank = 0; rank < keys; rank++) {
            sum += 1 / Math.pow(rank + 1, theta);
            cumulative[rank] = sum;
        }
        for (int rank = 0; rank < keys; rank++) {
            cumulative[rank] /= sum;
        }
        this.keyOfRank = permutation(keys);
    }

    /**
     * @param theta skew, 0 (uniform) or more
     * @param keys  how many keys, at least 1
     */
    public static ZipfKeys of(double theta, int keys) {
        if (!(theta >= 0) || Double.isInfinite(theta)) {
            throw new IllegalArgumentException("Zipf theta must be 0 (uniform) or a positive number, got " + theta);
        }
        if (keys < 1) {
            throw new IllegalArgumentException("the key space must hold at least 1 key, got " + keys);
        }
        return new ZipfKeys(theta, keys);
    }

    public int next(SplittableRandom random) {
        int found = Arrays.binarySearch(cumulative, random.nextDouble());
        int rank = found >= 0 ? found : Math.min(-found - 1, cumulative.length - 1);
        return keyOfRank[rank];
    }

    public double theta() {
        return theta;
    }

    public int keys() {
        return cumulative.length;
    }

    private static int[] permutation(int size) {
        int[] order = new int[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        SplittableRandom random = new SplittableRandom(PERMUTATION_SEED);
        for (int i = size - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int swap = order[i];
            order[i] = order[j];
            order[j] = swap;
        }
        return order;
    }
}
