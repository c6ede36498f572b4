package io.tidemark.bench;

import io.tidemark.bench.progress.RunTiming;
import io.tidemark.bench.progress.WarmUp;

import java.nio.file.Path;
import java.time.Duration;

/**
 * What every measured benchmark is given besides its workload, and the one place these are checked: the least
 * warm-up before each measured run (by the rule every warm-up has, {@link WarmUp#checkMinimum}), the measured time of
 * each run, and the folder its results go to. {@link #perRun()} is what the run skeleton is handed.
 *
 * @throws IllegalArgumentException naming the setting that is missing or out of range
 */
public record RunSettings(Duration warmup, Duration duration, Path outputFolder) {

    public RunSettings {
        WarmUp.checkMinimum(warmup);
        if (duration == null || duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("duration must be positive, got " + duration);
        }
        if (outputFolder == null) {
            throw new IllegalArgumentException("output folder is required");
        }
    }

    /**
     * {@code run}, for an options record that holds one.
     *
     * @throws IllegalArgumentException when it is missing
     */
    public static RunSettings required(RunSettings run) {
        if (run == null) {
            throw new IllegalArgumentException("run settings (warm-up, duration, output folder) are required");
        }
        return run;
    }

    /** How each run is timed: at least the warm-up, then the measured time. */
    public RunTiming perRun() {
        return new RunTiming(warmup, duration);
    }

    /** The planned seconds of one run: its least warm-up and its measured time. */
    public long secondsPerRun() {
        return perRun().plannedSeconds();
    }

    /** How a run was timed, for a report's notes: the warm-up rule, then "measured N s per {@code run}". */
    public String timing(String run) {
        return WarmUp.rule(warmup) + ", measured " + duration.toSeconds() + " s per " + run;
    }
}
