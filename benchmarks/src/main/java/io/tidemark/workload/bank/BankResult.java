package io.tidemark.workload.bank;

import io.tidemark.bench.report.LatencySummary;

/**
 * Outcome of a bank run. {@code invariantHolds} is true when every audit (each a snapshot read of all accounts
 * during the run, plus one after it) saw every account and the expected total; otherwise {@code violation} says
 * what the first failed audit saw. {@code finalBalances} are the balances of the audit after the run, by account.
 */
public record BankResult(long committed, long aborted, long errors, long audits, boolean invariantHolds,
                         String violation, String firstError, LatencySummary latency, long elapsedMillis,
                         long[] finalBalances) {

    public double p50Ms() {
        return latency.p50Ms();
    }

    public double p99Ms() {
        return latency.p99Ms();
    }

    public double committedPerSecond() {
        return elapsedMillis == 0 ? 0 : committed * 1000.0 / elapsedMillis;
    }
}
