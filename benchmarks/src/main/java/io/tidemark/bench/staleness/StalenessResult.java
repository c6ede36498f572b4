package io.tidemark.bench.staleness;

import org.HdrHistogram.Histogram;

/**
 * One run: read-only transactions of {@code keys} rows begun at the TSO ({@code bound} "begin") or at bounded
 * staleness; latency and snapshot age in microseconds.
 *
 * @param tsoBegins how many of the transactions asked the TSO for their timestamp
 */
public record StalenessResult(int keys, String bound, long transactions, long tsoBegins, double seconds,
                              Histogram latencyMicros, Histogram snapshotAgeMicros, Throwable firstError) {
}
