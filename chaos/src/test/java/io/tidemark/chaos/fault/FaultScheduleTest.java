package io.tidemark.chaos.fault;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A fault thread of one round injects each fault of its list once, then holds a run's end no longer; its faults come
 * once the clients committed enough since the fault before, or after half the usual time when no commit comes.
 */
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
        // No client commits: each fault comes after half the usual time (10 to 30 ms here).
        FaultSchedule schedule = new FaultSchedule(null, List.of(move, move, split), 20, 7, dir.resolve("faults.log"),
                1, () -> 0, 3);
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

    /** Half the usual time would be 5 to 15 minutes here: the round is through once the clients commit. */
    @Test
    void theFirstRoundGoesOnOnceTheClientsCommittedSinceTheFaultBefore(@TempDir Path dir) throws Exception {
        AtomicInteger commits = new AtomicInteger();
        List<Integer> committedAtFaults = new CopyOnWriteArrayList<>();
        FaultKind move = new FaultKind() {
            @Override
            public String description() {
                return "move";
            }

            @Override
            public String inject(FaultTarget target, Random random) {
                committedAtFaults.add(commits.get());
                return "moved";
            }
        };
        FaultSchedule schedule = new FaultSchedule(null, List.of(move, move, move), 1_200_000, 7,
                dir.resolve("faults.log"), 1, commits::incrementAndGet, 3);
        schedule.start();
        while (schedule.holdsEnd()) {
            Thread.sleep(10);
        }
        schedule.close();
        assertEquals(3, committedAtFaults.size());
        for (int i = 1; i < committedAtFaults.size(); i++) {
            assertTrue(committedAtFaults.get(i) - committedAtFaults.get(i - 1) >= 3,
                    "3 commits between two faults: " + committedAtFaults);
        }
    }

    @Test
    void aScheduleWithoutRoundsNeverHoldsTheEnd(@TempDir Path dir) throws Exception {
        FaultSchedule schedule = new FaultSchedule(null, List.of(new Named("sweep")), 20, 7, dir.resolve("faults.log"),
                0, () -> 0, 0);
        assertFalse(schedule.holdsEnd());
        assertEquals(List.of("sweep"), schedule.notYetInjected());
    }
}
