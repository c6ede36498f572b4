package io.tidemark.ycsb;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TransactionSizesTest {

    private static final int SAMPLES = 200_000;

    @Test
    void zipfSizesFollowThePapersMix() {
        TransactionSizes sizes = TransactionSizes.parse("zipf");
        int[] counts = new int[TransactionSizes.ZIPF_MAX + 1];
        for (int i = 0; i < SAMPLES; i++) {
            int size = sizes.next();
            assertTrue(size >= 1 && size <= TransactionSizes.ZIPF_MAX, "size out of 1..10: " + size);
            counts[size]++;
        }
        double atMostThree = (counts[1] + counts[2] + counts[3]) / (double) SAMPLES;
        double ten = counts[10] / (double) SAMPLES;
        // The paper: "63% of the transactions access 3 keys or less, whereas 3% access 10 keys".
        assertTrue(atMostThree > 0.62 && atMostThree < 0.645, "share of sizes 1-3: " + atMostThree);
        assertTrue(ten > 0.025 && ten < 0.04, "share of size 10: " + ten);
        assertTrue(counts[1] > counts[2] && counts[2] > counts[5] && counts[5] > counts[10],
                "sizes are not decreasingly popular");
        assertEquals(TransactionSizes.ZIPF_MAX, sizes.max());
    }

    @Test
    void zipfIsTheDefault() {
        assertEquals(TransactionSizes.ZIPF_MAX, TransactionSizes.parse(null).max());
    }

    @Test
    void aFixedSizeIsAlwaysThatSize() {
        TransactionSizes sizes = TransactionSizes.parse("5");
        for (int i = 0; i < 100; i++) {
            assertEquals(5, sizes.next());
        }
    }

    @Test
    void aMalformedSizeIsRefusedNamingTheProperty() {
        for (String bad : new String[] {"0", "-3", "zipfian", "2.5", ""}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> TransactionSizes.parse(bad));
            assertTrue(e.getMessage().contains(TransactionSizes.PROPERTY) && e.getMessage().contains("zipf"),
                    e.getMessage());
        }
    }
}
