package io.tidemark.bench.progress;

import java.time.Duration;

/**
 * The timed waits of a benchmark (warm-ups and measurements), which are what its progress is counted in: set-up such
 * as starting a TSO or preloading a table is not known in advance and is not counted. Used by one thread.
 */
public final class ProgressClock {

    private static final long TICK_MILLIS = 1000;

    private final ProgressListener listener;
    private final long plannedSeconds;
    private long doneMillis;
    private String phase = "";

    public ProgressClock(ProgressListener listener, long plannedSeconds) {
        this.listener = listener;
        this.plannedSeconds = plannedSeconds;
    }

    /** Names what is running now (shown next to the bar). */
    public void phase(String name) {
        phase = name;
        listener.progress(doneMillis / 1000, plannedSeconds, phase);
    }

    /** Sleeps {@code duration}, telling the listener every second. */
    public void sleep(Duration duration) throws InterruptedException {
        long left = duration.toMillis();
        while (left > 0) {
            long step = Math.min(TICK_MILLIS, left);
            Thread.sleep(step);
            left -= step;
            doneMillis += step;
            listener.progress(Math.min(plannedSeconds, doneMillis / 1000), plannedSeconds, phase);
        }
    }
}
