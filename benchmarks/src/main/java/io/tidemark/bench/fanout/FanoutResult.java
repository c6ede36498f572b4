package io.tidemark.bench.fanout;

import org.HdrHistogram.Histogram;

/**
 * One run: transactions of {@code operations} operations with at most {@code fanout} in flight through {@code api};
 * latency from begin
 * to the end of commit, in microseconds.
 */
public record FanoutResult(FanoutApi api, int operations, int fanout, long transactions, long errors, Histogram latencyMicros,
                           Throwable firstError) {

    /** This run and {@code other} (the same API, n and f) as one. */
    FanoutResult plus(FanoutResult other) {
        Histogram both = latencyMicros.copy();
        both.add(other.latencyMicros);
        return new FanoutResult(api, operations, fanout, transactions + other.transactions, errors + other.errors, both,
                firstError != null ? firstError : other.firstError);
    }

    double p50Ms() {
        return latencyMicros.getValueAtPercentile(50) / 1000.0;
    }

    double p99Ms() {
        return latencyMicros.getValueAtPercentile(99) / 1000.0;
    }
}
