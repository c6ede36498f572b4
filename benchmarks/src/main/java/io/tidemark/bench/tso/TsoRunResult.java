package io.tidemark.bench.tso;

import io.tidemark.bench.report.LatencySummary;

/** Measurements of one TSO benchmark scenario (warm-up excluded). {@code targetRate} is 0 for a saturating run. */
public record TsoRunResult(String scenario, String commitMode, int clients, long targetRate, double seconds,
                           long pairs, long aborts, long errors, String firstError, LatencySummary begin,
                           LatencySummary commit) {

    public double pairsPerSecond() {
        return seconds == 0 ? 0 : pairs / seconds;
    }
}
