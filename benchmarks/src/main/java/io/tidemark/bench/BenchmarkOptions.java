package io.tidemark.bench;

/** The options of a measured benchmark: its workload's own, and the {@link RunSettings} every one of them has. */
public interface BenchmarkOptions {

    /** The warm-up, measured time and output folder of the benchmark's runs. */
    RunSettings run();
}
