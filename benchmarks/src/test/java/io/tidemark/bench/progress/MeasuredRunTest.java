package io.tidemark.bench.progress;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class MeasuredRunTest {

    private static final RunTiming WINDOW = RunTiming.measureOnly(Duration.ofMillis(1));

    /** Records the order of the skeleton's calls. */
    private static final class Calls implements MeasuredRun.Recording<String> {
        final List<String> calls = new ArrayList<>();

        @Override
        public void reset(WarmUp.Outcome warmUp) {
            calls.add("reset");
        }

        @Override
        public String read(double seconds) {
            calls.add("read");
            return "measured";
        }

        @Override
        public String firstError() {
            return "java.io.IOException: region server gone";
        }
    }

    private static ProgressClock clock() {
        return new ProgressClock(ProgressListener.NONE, 0);
    }

    @Test
    void theWindowGoesOnUntilEveryClientCompletedAUnitOfWork() throws Exception {
        AtomicLong busy = new AtomicLong();
        CompletedWork alwaysDone = busy::incrementAndGet;
        AtomicLong slowReads = new AtomicLong();
        // Completes its first unit only when asked the fifth time: well after the 1 ms window.
        CompletedWork slow = () -> slowReads.incrementAndGet() >= 5 ? 1 : 0;
        Calls recording = new Calls();

        String result = MeasuredRun.measure(clock(), WINDOW, List.of(alwaysDone, slow), recording,
                Duration.ofSeconds(30));

        assertEquals("measured", result);
        assertTrue(slowReads.get() >= 5, "read before the slow client completed anything");
        assertEquals(List.of("reset", "read"), recording.calls);
    }

    @Test
    void workCompletedInTheWarmUpDoesNotCount() throws Exception {
        AtomicLong reads = new AtomicLong();
        // Completed a unit before the window (the first read, at its start), then one more from the fifth read on.
        CompletedWork warmedUp = () -> reads.incrementAndGet() >= 5 ? 2 : 1;

        MeasuredRun.measure(clock(), WINDOW, List.of(warmedUp), new Calls(), Duration.ofSeconds(30));

        assertTrue(reads.get() >= 5, "the warm-up's unit of work ended the window");
    }

    @Test
    void aClientThatCompletesNothingFailsTheRunNamingTheFirstError() {
        CompletedWork idle = () -> 0;
        AtomicLong busy = new AtomicLong();
        Calls recording = new Calls();

        IllegalStateException e = assertThrows(IllegalStateException.class, () -> MeasuredRun.measure(clock(),
                WINDOW, List.of(busy::incrementAndGet, idle), recording, Duration.ofMillis(20)));

        assertTrue(e.getMessage().startsWith("1 of 2 clients completed no unit of work"), e.getMessage());
        assertTrue(e.getMessage().endsWith("first error: java.io.IOException: region server gone"), e.getMessage());
        assertEquals(List.of("reset"), recording.calls, "nothing is read from a failed run");
    }
}
