package io.tidemark.chaos.run;

import java.time.Duration;

/**
 * How long a run's workload lasts, counted from the moment its clients work: a fixed time, or until the run did what
 * its scenario is for ({@link RunPurpose}: one round of its faults, then commits), at most a limit. Either way a
 * scenario whose fault lanes inject a fixed number of rounds holds the end until those lanes are through.
 *
 * @param limit the fixed time, or the longest a run waits for its purpose
 * @param untilFulfilled whether the run ends once its purpose is fulfilled (and fails when the limit comes first)
 * @param commitsAfterFaults when {@code untilFulfilled}: how many transactions of each kind the scenario mixes in
 *        must commit after every fault was injected (of single-region commits, which are rarer, one)
 */
public record RunLength(Duration limit, boolean untilFulfilled, int commitsAfterFaults) {

    /** Commits of each kind after the last fault that show the system works again, unless told otherwise. */
    public static final int COMMITS_AFTER_FAULTS = 3;

    public RunLength {
        if (limit.isNegative() || limit.isZero()) {
            throw new IllegalArgumentException("a run lasts a positive time: " + limit);
        }
        if (commitsAfterFaults < 0) {
            throw new IllegalArgumentException("commits after the faults must not be negative: " + commitsAfterFaults);
        }
    }

    /** Runs for {@code duration}. */
    public static RunLength fixed(Duration duration) {
        return new RunLength(duration, false, 0);
    }

    /** Runs until its purpose is fulfilled, with {@code commitsAfterFaults} of each kind; fails after {@code limit}. */
    public static RunLength untilFulfilled(Duration limit, int commitsAfterFaults) {
        return new RunLength(limit, true, commitsAfterFaults);
    }
}
