package io.tidemark.bench.tso;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Options of {@link TsoBenchmark}: {@code clients} connections, each keeping {@code window} BEGIN+COMMIT pairs
 * outstanding; every scenario warms up for {@code warmup}, then measures for {@code duration}. The rate-limited
 * scenario sends {@code targetRate} pairs/s, or half the measured saturation rate when it is 0.
 */
public record TsoBenchmarkOptions(int clients, int window, Duration warmup, Duration duration, long targetRate,
                                  Path outputFolder) {

    public TsoBenchmarkOptions {
        if (clients < 1) {
            throw new IllegalArgumentException("clients must be at least 1, got " + clients);
        }
        if (window < 1) {
            throw new IllegalArgumentException("window must be at least 1, got " + window);
        }
        if (warmup == null || warmup.isNegative()) {
            throw new IllegalArgumentException("warm-up must not be negative, got " + warmup);
        }
        if (duration == null || duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("duration must be positive, got " + duration);
        }
        if (targetRate < 0) {
            throw new IllegalArgumentException("target rate must not be negative (0 = half the saturation rate), got "
                    + targetRate);
        }
        if (outputFolder == null) {
            throw new IllegalArgumentException("output folder is required");
        }
    }
}
