package io.tidemark.bench.breakdown;

import io.tidemark.bench.txn.TxEnvironment;
import io.tidemark.bench.txn.TxMode;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Options of {@link BreakdownBenchmark}: in each (transactional) mode, {@code threads} clients run each kind of
 * transaction in turn on keys Zipf {@code keyTheta} over {@code data}; each run warms up for {@code warmup} and
 * measures for {@code duration}.
 */
public record BreakdownOptions(List<TxMode> modes, int threads, TxEnvironment.DataSpec data, double keyTheta,
                               Duration warmup, Duration duration, Path outputFolder) {

    public BreakdownOptions {
        if (modes == null || modes.isEmpty() || modes.stream().anyMatch(m -> !m.isTransactional())) {
            throw new IllegalArgumentException("modes must be transactional (generic or batched), got " + modes);
        }
        if (modes.stream().anyMatch(TxMode::usesFastPath)) {
            // Every breakdown shape has two or more operations, which the fast path never serves.
            throw new IllegalArgumentException("the breakdown's transactions all have several operations, which run"
                    + " generic even in fastpath mode: use generic or batched");
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        if (warmup == null || warmup.isNegative()) {
            throw new IllegalArgumentException("warm-up must not be negative, got " + warmup);
        }
        if (duration == null || duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("duration must be positive, got " + duration);
        }
        if (outputFolder == null) {
            throw new IllegalArgumentException("output folder is required");
        }
        modes = List.copyOf(modes);
    }
}
