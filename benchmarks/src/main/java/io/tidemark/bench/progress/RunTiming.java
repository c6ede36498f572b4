package io.tidemark.bench.progress;

import java.time.Duration;

/**
 * How one {@link MeasuredRun} is timed: warm up for at least {@code warmup} ({@link WarmUp}), then measure for at
 * least {@code measured}. A benchmark's run settings give the timing of each of its runs; one that splits a run
 * (fan-out measures each case in slices, after unmeasured warm-ups) makes its own with {@link #warmUpOnly} and
 * {@link #measureOnly}.
 *
 * @throws IllegalArgumentException when either time is missing or negative
 */
public record RunTiming(Duration warmup, Duration measured) {

    public RunTiming {
        WarmUp.checkMinimum(warmup);
        if (measured == null || measured.isNegative()) {
            throw new IllegalArgumentException("measured time must not be negative, got " + measured);
        }
    }

    /** A warm-up of at least {@code warmup} and no measured window beyond each client's first unit of work. */
    public static RunTiming warmUpOnly(Duration warmup) {
        return new RunTiming(warmup, Duration.ZERO);
    }

    /** No warm-up: measures for {@code measured} straight away. */
    public static RunTiming measureOnly(Duration measured) {
        return new RunTiming(Duration.ZERO, measured);
    }

    /** For a benchmark's log lines: "warm-up at least 3 s, 10 s measured". */
    public String describe() {
        return "warm-up at least " + warmup.toSeconds() + " s, " + measured.toSeconds() + " s measured";
    }

    /** The planned seconds of the run: its least warm-up and its measured time. */
    public long plannedSeconds() {
        return warmup.toSeconds() + measured.toSeconds();
    }
}
