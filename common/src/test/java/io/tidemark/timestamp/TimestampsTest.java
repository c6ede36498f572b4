package io.tidemark.timestamp;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TimestampsTest {

    private static final long START = 4096L * 1000;

    @Test
    void wallClockFloorIsATsoTimestampAboveTheMillisecondsHBaseStampsCellsWith() {
        long now = 1_700_000_000_000L;
        long floor = Timestamps.wallClockFloor(now);
        assertTrue(Timestamps.isTsoTimestamp(floor), "not a TSO timestamp: " + floor);
        assertEquals(now * Timestamps.TSO_STEP, floor);
        assertTrue(floor > now, "a cell stamped at " + now + " must sort below " + floor);
        assertTrue(Timestamps.wallClockFloor(now + 1) > floor, "later clocks give later floors");
    }

    @Test
    void wallClockFloorOfZeroIsZero() {
        assertEquals(0L, Timestamps.wallClockFloor(0));
    }

    @Test
    void wallClockFloorRefusesNegativeAndOverflowingTimes() {
        assertThrows(IllegalArgumentException.class, () -> Timestamps.wallClockFloor(-1));
        assertThrows(IllegalArgumentException.class,
                () -> Timestamps.wallClockFloor(Long.MAX_VALUE / Timestamps.TSO_STEP + 1));
    }

    @Test
    void theLowBitsSplitIntoStartFastPathAndCheckpoints() {
        assertEquals(255, Timestamps.MAX_CHECKPOINTS);
        assertFalse(Timestamps.isFastPathVersion(START));
        assertFalse(Timestamps.isCheckpointVersion(START));
        assertTrue(Timestamps.isFastPathVersion(START + 1));
        assertTrue(Timestamps.isFastPathVersion(START + 3840));
        assertFalse(Timestamps.isCheckpointVersion(START + 3840));
        assertTrue(Timestamps.isCheckpointVersion(START + 3841));
        assertFalse(Timestamps.isFastPathVersion(START + 3841));
        assertTrue(Timestamps.isCheckpointVersion(START + 4095));
    }

    @Test
    void checkpointVersionsBelongToTheTransactionThatStartedBelowThem() {
        assertEquals(START, Timestamps.checkpointVersion(START, 0));
        assertEquals(START + 3841, Timestamps.checkpointVersion(START, 1));
        assertEquals(START + 4095, Timestamps.checkpointVersion(START, 255));
        for (int k = 0; k <= Timestamps.MAX_CHECKPOINTS; k++) {
            assertEquals(START, Timestamps.writerOf(Timestamps.checkpointVersion(START, k)));
        }
    }

    @Test
    void aFastPathVersionIsItsOwnWriter() {
        assertEquals(START + 1, Timestamps.writerOf(START + 1));
        assertEquals(START + 3840, Timestamps.writerOf(START + 3840));
    }

    @Test
    void checkpointsOutsideTheRangeAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> Timestamps.checkpointVersion(START, 256));
        assertThrows(IllegalArgumentException.class, () -> Timestamps.checkpointVersion(START, -1));
        IllegalArgumentException notStart = assertThrows(IllegalArgumentException.class,
                () -> Timestamps.checkpointVersion(START + 1, 1));
        assertTrue(notStart.getMessage().contains("TSO timestamp"), notStart.getMessage());
    }

    @Test
    void snapshotTimestampsOutsideTheirRangesAreRefusedNamingTheValue() {
        Timestamps.checkSnapshot(START, 0, START - 1);
        Timestamps.checkSnapshot(START, START - 1, START + Timestamps.LOW_MASK);
        for (long[] bad : new long[][] {{0, 0, -1}, {START, START, START}, {START, -1, START},
                {START, 0, START - 2}, {START, 0, START + Timestamps.TSO_STEP}}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Timestamps.checkSnapshot(bad[0], bad[1], bad[2]));
            assertTrue(e.getMessage().contains("was "), e.getMessage());
        }
    }
}
