package io.tidemark.workload.bank;

/** A running bank workload's counters, reported a few times a second. */
public record BankProgress(long elapsedMillis, long durationMillis, long committed, long aborted, long audits) {
}
