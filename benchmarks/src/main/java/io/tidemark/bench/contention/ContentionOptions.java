package io.tidemark.bench.contention;

import io.tidemark.bench.RunSettings;
import io.tidemark.bench.txn.TxEnvironment;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Options of {@link ContentionBenchmark}: for each Zipf skew in {@code thetas}, {@code threads} clients run
 * transactions of {@code size} operations (reads and updates 50/50) on {@code data}; each run warms up for
 * {@code warmup} and measures for {@code duration}.
 */
public record ContentionOptions(List<Double> thetas, int size, int threads, TxEnvironment.DataSpec data,
                                Duration warmup, Duration duration, Path outputFolder) {

    public ContentionOptions {
        if (thetas == null || thetas.isEmpty() || thetas.stream().anyMatch(t -> !(t >= 0))) {
            throw new IllegalArgumentException("Zipf thetas must be 0 or more, got " + thetas);
        }
        if (size < 1 || threads < 1) {
            throw new IllegalArgumentException("size and threads must be at least 1");
        }
        RunSettings.check(warmup, duration, outputFolder);
        thetas = List.copyOf(thetas);
    }
}
