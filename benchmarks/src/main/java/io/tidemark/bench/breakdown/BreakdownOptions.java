package io.tidemark.bench.breakdown;

import io.tidemark.bench.BenchmarkOptions;
import io.tidemark.bench.RunSettings;
import io.tidemark.bench.txn.TxEnvironment;
import io.tidemark.client.PostCommitMode;
import io.tidemark.bench.txn.TxMode;

import java.util.List;

/**
 * Options of {@link BreakdownBenchmark}: in each mode (generic, batched, or raw HBase as the baseline), {@code threads}
 * clients run each kind of transaction in turn on keys Zipf {@code keyTheta} over {@code data}, with post-commit
 * {@code postCommit}; each run warms up and measures as {@code run} says.
 */
public record BreakdownOptions(List<TxMode> modes, int threads, TxEnvironment.DataSpec data, double keyTheta,
                               PostCommitMode postCommit, RunSettings run) implements BenchmarkOptions {

    public BreakdownOptions {
        if (modes == null || modes.isEmpty()) {
            throw new IllegalArgumentException("at least one mode is required");
        }
        if (modes.stream().anyMatch(TxMode::usesFastPath)) {
            // The fast path serves single operations without begin or commit: nothing to break down.
            throw new IllegalArgumentException("the fast path has no begin or commit to break down: use generic,"
                    + " batched, raw or raw-after-begin");
        }
        if (postCommit == null) {
            throw new IllegalArgumentException("post-commit mode is required (sync or async)");
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, got " + threads);
        }
        RunSettings.required(run);
        modes = List.copyOf(modes);
    }
}
