package io.tidemark.tso.monitoring;

import com.codahale.metrics.Snapshot;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class EventLoopLatencyReservoirTest {

    @Test
    void percentilesOfRecordedValuesHaveTwoSignificantDigits() {
        EventLoopLatencyReservoir reservoir = new EventLoopLatencyReservoir();
        for (long value = 1; value <= 10_000; value++) {
            reservoir.update(value * 1000);
        }
        Snapshot snapshot = reservoir.getSnapshot();
        assertEquals(10_000, snapshot.size());
        assertEquals(5_000_000, snapshot.getMedian(), 5_000_000 * 0.01);
        assertEquals(9_900_000, snapshot.get99thPercentile(), 9_900_000 * 0.01);
        assertEquals(10_000_000, snapshot.getMax(), 10_000_000 * 0.01);
        assertEquals(1000, snapshot.getMin(), 1000 * 0.01);
    }

    @Test
    void valuesStayForLaterReadsWithinTheWindow() {
        EventLoopLatencyReservoir reservoir = new EventLoopLatencyReservoir();
        reservoir.update(100);
        assertEquals(1, reservoir.getSnapshot().size());
        reservoir.update(200);
        assertEquals(2, reservoir.getSnapshot().size(), "a read does not drop what earlier reads saw");
    }

    @Test
    void emptyReservoirReadsAsZeroAndNegativeValuesAsZero() {
        EventLoopLatencyReservoir reservoir = new EventLoopLatencyReservoir();
        Snapshot empty = reservoir.getSnapshot();
        assertEquals(0, empty.size());
        assertEquals(0, empty.get99thPercentile());
        assertEquals(0, empty.getMax());
        reservoir.update(-5);
        assertEquals(0, reservoir.getSnapshot().getMax());
        assertThrows(IllegalArgumentException.class, () -> reservoir.getSnapshot().getValue(1.5));
    }
}
