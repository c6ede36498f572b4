package io.tidemark.bench.txn;

import io.tidemark.config.Choices;
import io.tidemark.protocol.CommitMode;

/**
 * How the benchmark transactions run: Tidemark with the low-latency TSO (the client writes its commit record), Tidemark
 * with the batched TSO (the TSO writes commit records in batches, classic Omid's way), Tidemark with the fast path
 * (transactions of one operation run inside the region server with no TSO round trip, longer ones as generic
 * transactions with the low-latency TSO), or plain HBase gets and puts with no transaction at all (the baseline).
 */
public enum TxMode {
    GENERIC("generic", CommitMode.LOW_LATENCY),
    BATCHED("batched", CommitMode.BATCHED),
    FASTPATH("fastpath", CommitMode.LOW_LATENCY),
    RAW("raw", null);

    private final String label;
    private final CommitMode commitMode;

    TxMode(String label, CommitMode commitMode) {
        this.label = label;
        this.commitMode = commitMode;
    }

    public String label() {
        return label;
    }

    /** The TSO's commit mode, or null for raw HBase. */
    public CommitMode commitMode() {
        return commitMode;
    }

    public boolean isTransactional() {
        return commitMode != null;
    }

    /** Whether one-operation transactions run on the fast path (and the data table has its coprocessor). */
    public boolean usesFastPath() {
        return this == FASTPATH;
    }

    /** The label, as the command line and the reports spell it. */
    @Override
    public String toString() {
        return label;
    }

    /** @throws IllegalArgumentException naming the accepted modes */
    public static TxMode fromLabel(String label) {
        return Choices.parse(values(), TxMode::label, label, "benchmark mode");
    }
}
