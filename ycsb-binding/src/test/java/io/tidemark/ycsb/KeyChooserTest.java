package io.tidemark.ycsb;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertTrue;

class KeyChooserTest {

    @Test
    void zipfianKeysStayInRangeAndFavourAFewRecords() {
        KeyChooser keys = KeyChooser.zipfian(100, 1000, 0.8);
        Map<Long, Integer> counts = new HashMap<>();
        int samples = 100_000;
        for (int i = 0; i < samples; i++) {
            long key = keys.next();
            assertTrue(key >= 100 && key < 1100, "key out of range: " + key);
            counts.merge(key, 1, Integer::sum);
        }
        int hottest = counts.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        // Uniform keys would give each record about 100 hits; theta 0.8 gives the hottest one about 6%.
        assertTrue(hottest > 3000, "hottest record got " + hottest + " of " + samples);
    }

    @Test
    void uniformKeysStayInRangeAndSpreadEvenly() {
        KeyChooser keys = KeyChooser.uniform(0, 10);
        int[] counts = new int[10];
        for (int i = 0; i < 10_000; i++) {
            long key = keys.next();
            assertTrue(key >= 0 && key < 10, "key out of range: " + key);
            counts[(int) key]++;
        }
        for (int c : counts) {
            assertTrue(c > 700 && c < 1300, "uneven uniform keys: " + c);
        }
    }
}
