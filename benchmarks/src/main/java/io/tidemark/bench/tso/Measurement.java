package io.tidemark.bench.tso;

import io.tidemark.bench.progress.MeasuredRun;
import io.tidemark.bench.progress.ProgressClock;
import io.tidemark.bench.progress.RunTiming;
import io.tidemark.bench.progress.WarmUp;
import io.tidemark.bench.report.LatencySummary;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * How a scenario of pairs is measured, whichever TSO its loads talk to: a {@link MeasuredRun} whose clients are the
 * loads; then they stop, and the pairs in flight are waited for.
 */
final class Measurement {

    /** How long to wait for outstanding pairs once the clients stop. */
    private static final long DRAIN_MILLIS = 10_000;

    private final RunTiming timing;
    private final ProgressClock clock;

    Measurement(RunTiming timing, ProgressClock clock) {
        this.timing = timing;
        this.clock = clock;
    }

    /**
     * Measures {@code loads} (one per client, already started) through {@code stats}; {@code afterStop} runs once
     * they are told to stop.
     */
    TsoRunResult measure(String scenario, String commitMode, long targetRate, PairLoad.Stats stats,
                         List<? extends WindowedLoad> loads, Runnable afterStop) throws InterruptedException {
        try {
            return MeasuredRun.measure(clock, timing, loads, new MeasuredRun.Recording<>() {
                @Override
                public void reset(WarmUp.Outcome warmUp) {
                    stats.reset();
                }

                @Override
                public TsoRunResult read(double seconds) {
                    var begin = stats.beginSinceReset();
                    var commit = stats.commitSinceReset();
                    return new TsoRunResult(scenario, commitMode, loads.size(), targetRate, seconds,
                            commit.getTotalCount(), stats.aborts.sum(), stats.errors.sum(), stats.firstError,
                            LatencySummary.of(begin), LatencySummary.of(commit));
                }

                @Override
                public String firstError() {
                    return stats.firstError;
                }
            });
        } finally {
            loads.forEach(WindowedLoad::stop);
            afterStop.run();
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DRAIN_MILLIS);
            while (loads.stream().anyMatch(l -> l.inFlight() > 0) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
        }
    }
}
