package io.tidemark.bench.progress;

/** Told how far a benchmark got, in measured (and warm-up) seconds out of the seconds it plans to take. */
@FunctionalInterface
public interface ProgressListener {

    ProgressListener NONE = (done, planned, phase) -> { };

    void progress(long doneSeconds, long plannedSeconds, String phase);
}
