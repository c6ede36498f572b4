package io.tidemark.bench;

import io.tidemark.bench.txn.ZipfKeys;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ZipfKeysTest {

    private static int[] counts(double theta, int keys, int draws) {
        ZipfKeys zipf = ZipfKeys.of(theta, keys);
        SplittableRandom random = new SplittableRandom(1);
        int[] counts = new int[keys];
        for (int i = 0; i < draws; i++) {
            counts[zipf.next(random)]++;
        }
        return counts;
    }

    private static int max(int[] counts) {
        int max = 0;
        for (int c : counts) {
            max = Math.max(max, c);
        }
        return max;
    }

    @Test
    void hottestKeyOfASteepDistributionGetsItsExactShare() {
        // theta 1.4 over 100 keys: the top rank has probability 1 / (sum of 1/k^1.4 for k = 1..100) = 0.369.
        int[] counts = counts(1.4, 100, 100_000);

        assertEquals(0.369, max(counts) / 100_000.0, 0.01);
    }

    @Test
    void thetaZeroIsUniform() {
        int[] counts = counts(0, 10, 100_000);

        for (int c : counts) {
            assertEquals(10_000, c, 500);
        }
    }

    @Test
    void everyDrawIsAKeyOfTheSpace() {
        int[] counts = counts(0.8, 7, 10_000);

        assertEquals(7, counts.length);
        assertTrue(max(counts) < 10_000);
    }

    @Test
    void negativeThetaIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ZipfKeys.of(-0.5, 10));
        assertTrue(e.getMessage().contains("theta"), e.getMessage());
    }
}
