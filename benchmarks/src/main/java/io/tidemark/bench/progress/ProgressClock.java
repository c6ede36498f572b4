package io.tidemark.bench.progress;

import java.time.Duration;

/**
 * The timed waits of a benchmark (warm-ups and measurements), which are what its progress is counted in: set-up such
 * as starting a TSO or preloading a table is not known in advance and is not counted. A warm-up that goes on past its
 * minimum while the JIT compiler settles ({@link WarmUp}) adds that time to the plan. Used by one thread.
 */
public final class ProgressClock {

    private static final long TICK_MILLIS = 1000;

    private final ProgressListener listener;
    private long plannedMillis;
    private long doneMillis;
    private String phase = "";

    public ProgressClock(ProgressListener listener, long plannedSeconds) {
        this.listener = listener;
        this.plannedMillis = plannedSeconds * 1000;
    }

    /** Names what is running now (shown next to the bar). */
    public void phase(String name) {
        phase = name;
        listener.progress(doneMillis / 1000, plannedMillis / 1000, phase);
    }

    /** Sleeps {@code duration}, telling the listener every second. */
    public void sleep(Duration duration) throws InterruptedException {
        long left = duration.toMillis();
        while (left > 0) {
            long step = Math.min(TICK_MILLIS, left);
            Thread.sleep(step);
            left -= step;
            doneMillis += step;
            listener.progress(Math.min(plannedMillis, doneMillis) / 1000, plannedMillis / 1000, phase);
        }
    }

    /**
     * Warms up while the benchmark's clients run: at least {@code minimum}, then until the JIT compiler has settled
     * ({@link WarmUp}); none when {@code minimum} is zero.
     */
    public WarmUp.Outcome warmUp(Duration minimum) throws InterruptedException {
        long minimumMillis = minimum.toMillis();
        long[] waited = {0};
        return WarmUp.ofThisJvm(millis -> {
            if (waited[0] >= minimumMillis) {
                plannedMillis += millis;
            }
            waited[0] += millis;
            sleep(Duration.ofMillis(millis));
        }).run(minimum);
    }
}
