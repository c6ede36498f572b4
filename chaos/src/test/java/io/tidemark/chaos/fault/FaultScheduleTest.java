package io.tidemark.chaos.fault;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A fault thread of one round injects each fault of its list once, then holds a run's end no longer. */
@Timeout(30)
class FaultScheduleTest {

    /** A fault that does nothing. */
    private record Named(String description) implements FaultKind {
        @Override
        public String inject(FaultTarget target, Random random) {
            return "nothing";
        }
    }

    @Test
    void oneRoundInjectsEachListedFaultOnceAndThenStops(@TempDir Path dir) throws Exception {
        FaultKind move = new Named("move");
        FaultKind split = new Named("split");
        FaultSchedule schedule = new FaultSchedule(null, List.of(move, move, split), 20, 7, dir.resolve("faults.log"),
                1);
        assertTrue(schedule.holdsEnd(), "nothing injected yet");
        assertEquals(List.of("move", "split"), schedule.notYetInjected());
        schedule.start();
        while (schedule.holdsEnd()) {
            Thread.sleep(10);
        }
        assertEquals(List.of(), schedule.notYetInjected());
        // A schedule that went on would inject more meanwhile (a fault every 10 to 30 ms); passing needs no wait.
        Thread.sleep(200);
        schedule.close();
        assertEquals(Map.of("move", 2, "split", 1), schedule.byKind(), "one round, then no more");
    }

    @Test
    void aScheduleWithoutRoundsNeverHoldsTheEnd(@TempDir Path dir) throws Exception {
        FaultSchedule schedule = new FaultSchedule(null, List.of(new Named("sweep")), 20, 7, dir.resolve("faults.log"),
                0);
        assertFalse(schedule.holdsEnd());
        assertEquals(List.of("sweep"), schedule.notYetInjected());
    }
}
