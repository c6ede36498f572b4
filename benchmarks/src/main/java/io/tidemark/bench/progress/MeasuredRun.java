package io.tidemark.bench.progress;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The skeleton of a measured benchmark run once its clients are running: warm up ({@link WarmUp}), forget what the
 * warm-up recorded, measure, and read the measurement; each benchmark fills in its clients and what it records.
 *
 * <p>The measured window lasts at least the time asked for, and until every client has completed at least one unit
 * of work in it. A short fixed window could end before a client on a loaded machine completed anything (a 200 ms
 * window in the smoke tests, or the first commit record that opens a connection), which then read as a client that
 * measured nothing; the window is measured as it actually lasted, so rates stay rates. A client that completes
 * nothing for {@link #LONGEST_WAIT} beyond the window is broken (a dead server, every call failing): the run fails,
 * saying so, instead of reporting a client that did no work.
 */
public final class MeasuredRun {

    /** How long past the window asked for the run waits for a client's first unit of work before failing. */
    public static final Duration LONGEST_WAIT = Duration.ofSeconds(60);

    private static final long POLL_MILLIS = 5;

    /** What a benchmark records while its clients run. */
    public interface Recording<M> {

        /** Forgets what was recorded so far: the warm-up, which ended as {@code warmUp} says. */
        void reset(WarmUp.Outcome warmUp);

        /** What was recorded since {@link #reset()}, over the {@code seconds} the window lasted. */
        M read(double seconds);

        /** The first error a client met, for the failure of a run in which a client did nothing; null if none. */
        String firstError();
    }

    private MeasuredRun() {
    }

    /**
     * Warms up for at least {@code timing}'s warm-up while {@code clients} run, resets {@code recording}, measures for
     * at least its measured time and until each client completed a unit of work, and reads {@code recording}.
     *
     * @throws IllegalStateException when a client completed nothing in the window and {@link #LONGEST_WAIT} after it
     */
    public static <M> M measure(ProgressClock clock, RunTiming timing, List<? extends CompletedWork> clients,
                                Recording<M> recording) throws InterruptedException {
        return measure(clock, timing, clients, recording, LONGEST_WAIT);
    }

    /** As {@link #measure(ProgressClock, RunTiming, List, Recording)}, failing after {@code longestWait}. */
    static <M> M measure(ProgressClock clock, RunTiming timing, List<? extends CompletedWork> clients,
                         Recording<M> recording, Duration longestWait) throws InterruptedException {
        WarmUp.Outcome warmUp = clock.warmUp(timing.warmup());
        long[] before = new long[clients.size()];
        for (int i = 0; i < before.length; i++) {
            before[i] = clients.get(i).completed();
        }
        recording.reset(warmUp);
        long from = System.nanoTime();
        clock.sleep(timing.measured());
        awaitEveryClient(clients, before, timing.measured(), recording, longestWait);
        return recording.read((System.nanoTime() - from) / 1e9);
    }

    private static void awaitEveryClient(List<? extends CompletedWork> clients, long[] before, Duration window,
                                         Recording<?> recording, Duration longestWait)
            throws InterruptedException {
        long deadline = System.nanoTime() + longestWait.toNanos();
        while (true) {
            int idle = idle(clients, before);
            if (idle == 0) {
                return;
            }
            if (System.nanoTime() - deadline >= 0) {
                throw new IllegalStateException(idle + " of " + clients.size() + " clients completed no unit of work "
                        + "in the measured window of " + window.toMillis() + " ms and " + longestWait.toMillis()
                        + " ms after it; first error: " + recording.firstError());
            }
            TimeUnit.MILLISECONDS.sleep(POLL_MILLIS);
        }
    }

    private static int idle(List<? extends CompletedWork> clients, long[] before) {
        int idle = 0;
        for (int i = 0; i < before.length; i++) {
            if (clients.get(i).completed() == before[i]) {
                idle++;
            }
        }
        return idle;
    }
}
