package io.tidemark.bench.latency;

import io.tidemark.bench.BenchmarkOptions;
import io.tidemark.bench.RunSettings;
import io.tidemark.bench.txn.TxEnvironment;
import io.tidemark.bench.txn.TxMode;

import java.util.List;

/**
 * Options of {@link LatencyBySizeBenchmark}: for each mode and each transaction size, {@code threads} clients run
 * transactions of that many operations (each a read or an update, 50/50) on keys drawn with Zipf skew
 * {@code keyTheta} from the preloaded {@code data}; each run warms up, then measures, as
 * {@code run} says.
 */
public record LatencyBySizeOptions(List<TxMode> modes, List<Integer> sizes, int threads,
                                   TxEnvironment.DataSpec data, double keyTheta, RunSettings run)
        implements BenchmarkOptions {

    public LatencyBySizeOptions {
        if (modes == null || modes.isEmpty()) {
            throw new IllegalArgumentException("at least one mode is needed");
        }
        if (sizes == null || sizes.isEmpty() || sizes.stream().anyMatch(s -> s < 1)) {
            throw new IllegalArgumentException("transaction sizes must be at least 1, got " + sizes);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        RunSettings.required(run);
        modes = List.copyOf(modes);
        sizes = List.copyOf(sizes);
    }
}
