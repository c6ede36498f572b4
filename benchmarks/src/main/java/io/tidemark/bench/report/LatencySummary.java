package io.tidemark.bench.report;

import org.HdrHistogram.Histogram;

import java.util.Locale;

/** Percentiles of a latency histogram recorded in microseconds, in milliseconds. */
public record LatencySummary(long count, double p50Ms, double p99Ms, double meanMs, double maxMs) {

    public static LatencySummary of(Histogram microseconds) {
        if (microseconds.getTotalCount() == 0) {
            return new LatencySummary(0, 0, 0, 0, 0);
        }
        return new LatencySummary(microseconds.getTotalCount(),
                microseconds.getValueAtPercentile(50) / 1000.0,
                microseconds.getValueAtPercentile(99) / 1000.0,
                microseconds.getMean() / 1000.0,
                microseconds.getMaxValue() / 1000.0);
    }

    /** Milliseconds with two decimals, as every report prints them. */
    public static String ms(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }

    /** {@code ms} over {@code baselineMs} with two decimals; "n/a" when the baseline measured nothing. */
    public static String ratio(double ms, double baselineMs) {
        return baselineMs > 0 ? String.format(Locale.ROOT, "%.2f", ms / baselineMs) : "n/a";
    }
}
