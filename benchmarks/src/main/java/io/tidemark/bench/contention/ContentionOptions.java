package io.tidemark.bench.contention;

import io.tidemark.bench.BenchmarkOptions;
import io.tidemark.bench.RunSettings;
import io.tidemark.bench.txn.TxEnvironment;

import java.util.List;

/**
 * Options of {@link ContentionBenchmark}: for each Zipf skew in {@code thetas}, {@code threads} clients run
 * transactions of {@code size} operations (reads and updates 50/50) on {@code data}; each run warms up and
 * measures as {@code run} says.
 */
public record ContentionOptions(List<Double> thetas, int size, int threads, TxEnvironment.DataSpec data,
                                RunSettings run) implements BenchmarkOptions {

    public ContentionOptions {
        if (thetas == null || thetas.isEmpty() || thetas.stream().anyMatch(t -> !(t >= 0))) {
            throw new IllegalArgumentException("Zipf thetas must be 0 or more, got " + thetas);
        }
        if (size < 1 || threads < 1) {
            throw new IllegalArgumentException("size and threads must be at least 1");
        }
        RunSettings.required(run);
        thetas = List.copyOf(thetas);
    }
}
