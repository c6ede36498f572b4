package io.tidemark.bench.e2e;

import io.tidemark.bench.progress.WarmUp;
import io.tidemark.bench.report.LatencySummary;

/**
 * Measurements of one end-to-end scenario (warm-up excluded, but how it ended kept); latencies cover committed
 * transactions only.
 */
public record E2eResult(String scenario, WarmUp.Outcome warmUp, double seconds, long transactions, long aborts,
                        long errors, String firstError, LatencySummary all, LatencySummary reads,
                        LatencySummary writes) {

    public double transactionsPerSecond() {
        return seconds == 0 ? 0 : transactions / seconds;
    }
}
