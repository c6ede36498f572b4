package io.tidemark.bench.throughput;

import io.tidemark.bench.BenchmarkOptions;
import io.tidemark.bench.RunSettings;
import io.tidemark.bench.tso.BackgroundRecords;
import io.tidemark.bench.txn.TxEnvironment;
import io.tidemark.bench.txn.TxMode;

import java.util.List;

/**
 * Options of {@link ThroughputLatencyBenchmark}. In each mode, {@code threadsPerSize} client threads per transaction
 * size run transactions (operations 50/50 reads and updates, keys Zipf {@code keyTheta} over {@code data}) while a
 * background load of BEGIN/COMMIT pairs on {@code connections} TSO connections runs at each load step: none, each of
 * {@code loadFractions} of the saturation rate, and saturation (each connection keeping {@code window} pairs
 * outstanding). In generic mode the background pairs write their commit records or not as {@code background} says.
 * Every step warms up and measures as {@code run} says.
 */
public record ThroughputLatencyOptions(List<TxMode> modes, List<Integer> sizes, int threadsPerSize,
                                       TxEnvironment.DataSpec data, double keyTheta, int connections, int window,
                                       List<Double> loadFractions, BackgroundRecords background,
                                       RunSettings run) implements BenchmarkOptions {

    public ThroughputLatencyOptions {
        if (modes == null || modes.isEmpty() || modes.stream().anyMatch(m -> !m.isTransactional())) {
            throw new IllegalArgumentException("modes must be transactional (generic or batched), got " + modes);
        }
        if (sizes == null || sizes.isEmpty() || sizes.stream().anyMatch(s -> s < 1)) {
            throw new IllegalArgumentException("transaction sizes must be at least 1, got " + sizes);
        }
        if (threadsPerSize < 1 || connections < 1 || window < 1) {
            throw new IllegalArgumentException("threads per size, connections and window must be at least 1");
        }
        if (loadFractions == null || loadFractions.stream().anyMatch(f -> !(f > 0 && f < 1))) {
            throw new IllegalArgumentException("load fractions must be between 0 and 1 (exclusive), got "
                    + loadFractions);
        }
        if (background == null) {
            throw new IllegalArgumentException("the background load's kind is required");
        }
        RunSettings.required(run);
        modes = List.copyOf(modes);
        sizes = List.copyOf(sizes);
        loadFractions = loadFractions.stream().sorted().toList();
    }

    /** Load steps per mode: no background load, the fractions, saturation. */
    public int steps() {
        return loadFractions.size() + 2;
    }
}
