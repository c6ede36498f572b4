package io.tidemark.bench.tpcc;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TpccRandomTest {

    private static final TpccRandom.Constants CONSTANTS = new TpccRandom.Constants(259, 7911, 223);

    private static TpccRandom random(long seed) {
        return new TpccRandom(new SplittableRandom(seed), CONSTANTS);
    }

    @Test
    void nuRandStaysInItsRangeAndReachesBothEnds() {
        SplittableRandom source = new SplittableRandom(1);
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            int v = TpccRandom.nuRand(source, TpccRandom.A_CUSTOMER_ID, 259, 1, 300);
            assertTrue(v >= 1 && v <= 300, "out of [1, 300]: " + v);
            seen.add(v);
        }
        assertTrue(seen.contains(1) && seen.contains(300), "never drew an end of the range");
    }

    @Test
    void nuRandIsNonUniform() {
        SplittableRandom source = new SplittableRandom(2);
        int[] counts = new int[3001];
        int draws = 300_000;
        for (int i = 0; i < draws; i++) {
            counts[TpccRandom.nuRand(source, TpccRandom.A_CUSTOMER_ID, 259, 1, 3000)]++;
        }
        int max = 0;
        for (int c : counts) {
            max = Math.max(max, c);
        }
        assertTrue(max > 3 * draws / 3000, "the hottest id got " + max + " of " + draws + ": uniform, not NURand");
    }

    @Test
    void lastNamesAreThreeSyllablesByDigit() {
        assertEquals("BARBARBAR", TpccRandom.lastName(0));
        assertEquals("OUGHTABLEPRI", TpccRandom.lastName(123));
        assertEquals("EINGEINGEING", TpccRandom.lastName(999));
        assertThrows(IllegalArgumentException.class, () -> TpccRandom.lastName(1000));
    }

    @Test
    void newOrderLinesAreFiveToFifteenDistinctItemsAndOnePercentRollBack() {
        TpccRandom random = random(3);
        TpccScale scale = TpccScale.of(1, 0.01);
        int orders = 20_000;
        int rollbacks = 0;
        for (int o = 0; o < orders; o++) {
            NewOrderLines lines = NewOrderLines.draw(random, scale, 1);
            assertTrue(lines.count() >= 5 && lines.count() <= 15, "lines: " + lines.count());
            Set<Integer> distinct = new HashSet<>();
            for (int i = 0; i < lines.count(); i++) {
                assertTrue(distinct.add(lines.itemIds()[i]), "an item twice in one order");
                assertEquals(1, lines.supplyWarehouses()[i], "one warehouse: every line is local");
                assertTrue(lines.quantities()[i] >= 1 && lines.quantities()[i] <= 10);
            }
            if (lines.itemIds()[lines.count() - 1] == scale.items() + 1) {
                rollbacks++;
            }
        }
        assertTrue(rollbacks > orders / 200 && rollbacks < orders / 50, "rollbacks: " + rollbacks + " of " + orders);
    }

    @Test
    void withSeveralWarehousesAboutOnePercentOfLinesAreRemote() {
        TpccRandom random = random(4);
        TpccScale scale = TpccScale.of(3, 0.01);
        int lines = 0;
        int remote = 0;
        for (int o = 0; o < 20_000; o++) {
            NewOrderLines order = NewOrderLines.draw(random, scale, 2);
            for (int w : order.supplyWarehouses()) {
                lines++;
                if (w != 2) {
                    remote++;
                    assertTrue(w == 1 || w == 3, "no such warehouse: " + w);
                }
            }
        }
        assertTrue(remote > lines / 200 && remote < lines / 50, "remote lines: " + remote + " of " + lines);
    }

    @Test
    void anotherWarehouseIsNeverTheHomeOne() {
        TpccRandom random = random(5);
        for (int i = 0; i < 1000; i++) {
            assertNotEquals(2, TpccTerminal.otherWarehouse(random, 3, 2));
        }
    }

    @Test
    void stockIsRestockedBy91WhenFewerThanTenWouldBeLeft() {
        assertEquals(15, TpccTerminal.newStockQuantity(20, 5));
        assertEquals(10 - 1 + 91, TpccTerminal.newStockQuantity(10, 1));
        assertEquals(10, TpccTerminal.newStockQuantity(20, 10));
        assertEquals(19 - 10 + 91, TpccTerminal.newStockQuantity(19, 10));
    }
}
