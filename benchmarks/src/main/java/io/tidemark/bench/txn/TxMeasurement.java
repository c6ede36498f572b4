package io.tidemark.bench.txn;

import io.tidemark.bench.report.LatencySummary;

/**
 * What one group of client threads did in a measured interval: committed transactions and their end-to-end latency
 * (begin to the end of commit), aborts, errors, and the mean time of each phase of a committed transaction; the
 * commit's mean is further split into its {@link CommitPhases} (their sum falls short of it by the client's own work
 * between them).
 */
public record TxMeasurement(String label, double seconds, long commits, long aborts, long errors, String firstError,
                            LatencySummary latency, double meanBeginMs, double meanOperationsMs,
                            double meanCommitMs, double meanCommitTsoMs, double meanCommitRecordMs,
                            double meanPostCommitMs) {

    public double commitsPerSecond() {
        return seconds == 0 ? 0 : commits / seconds;
    }

    /** Aborted share of the finished transactions, from 0 to 1. */
    public double abortRate() {
        long finished = commits + aborts;
        return finished == 0 ? 0 : (double) aborts / finished;
    }
}
