package io.tidemark.timestamp;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TimestampsTest {

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
}
