package io.tidemark.bench.failover;

import io.tidemark.workload.bank.BankResult;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Outcome of a failover run: per kill, the time from the kill of the active TSO until the standby served
 * ({@code takeoverMillis}) and until the first transfer committed on it ({@code failoverMillis}); the bank's result;
 * and {@code ledgerMismatch}, null when every account holds exactly what the transfers reported committed say.
 */
public record FailoverResult(List<Long> takeoverMillis, List<Long> failoverMillis, BankResult bank,
                             String ledgerMismatch, String failure) {

    /** Whether every kill was followed by a take-over and commits, and nothing committed was lost or invented. */
    public boolean correct() {
        return failure == null && ledgerMismatch == null && bank.invariantHolds();
    }

    /** The {@code p}-th percentile (0 to 100, nearest rank) of the failover times, or -1 without any. */
    public long failoverPercentile(double p) {
        return percentile(failoverMillis, p);
    }

    public long takeoverPercentile(double p) {
        return percentile(takeoverMillis, p);
    }

    static long percentile(List<Long> values, double p) {
        if (values.isEmpty()) {
            return -1;
        }
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }
}
