package io.tidemark.bench.progress;

/**
 * A client of a measured run (a thread, a connection) as {@link MeasuredRun} sees it: how many units of work (a
 * committed transaction, a committed BEGIN+COMMIT pair) it has completed since it started: what the benchmark
 * measures, as latencies count committed transactions only, not an abort. Read from another
 * thread than the one that counts.
 */
@FunctionalInterface
public interface CompletedWork {

    long completed();
}
