package io.tidemark.bench.progress;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(30)
class RunTimingTest {

    @Test
    void aWarmUpOnlyRunMeasuresNothingBeyondItsWarmUp() {
        RunTiming timing = RunTiming.warmUpOnly(Duration.ofSeconds(3));

        assertEquals(new RunTiming(Duration.ofSeconds(3), Duration.ZERO), timing);
        assertEquals(3, timing.plannedSeconds());
    }

    @Test
    void aMeasureOnlyRunHasNoWarmUp() {
        assertEquals(new RunTiming(Duration.ZERO, Duration.ofSeconds(5)), RunTiming.measureOnly(Duration.ofSeconds(5)));
    }

    @Test
    void itDescribesItselfInWholeSecondsForLogLines() {
        assertEquals("warm-up at least 3 s, 10 s measured",
                new RunTiming(Duration.ofSeconds(3), Duration.ofSeconds(10)).describe());
    }

    @Test
    void eachBadTimeIsRefusedNamingIt() {
        assertRefused("warm-up", Duration.ofSeconds(-1), Duration.ZERO);
        assertRefused("warm-up", null, Duration.ZERO);
        assertRefused("measured time", Duration.ZERO, Duration.ofSeconds(-1));
        assertRefused("measured time", Duration.ZERO, null);
    }

    private static void assertRefused(String named, Duration warmup, Duration measured) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new RunTiming(warmup, measured));
        assertTrue(e.getMessage().startsWith(named), e.getMessage());
    }
}
