package io.tidemark.bench.txn;

import io.tidemark.config.Choices;
import io.tidemark.protocol.CommitMode;

/**
 * How the benchmark transactions run: Tidemark with the low-latency TSO (the client writes its commit record), Tidemark
 * with the batched TSO (the TSO writes commit records in batches, classic Omid's way), Tidemark with the fast path
 * (transactions of one operation run inside the region server with no TSO round trip, longer ones as generic
 * transactions with the low-latency TSO), or plain HBase gets and puts with no transaction at all (the baseline),
 * either back to back or each group of operations right after a BEGIN round trip, as a transaction's are.
 */
public enum TxMode {
    GENERIC("generic", CommitMode.LOW_LATENCY, true),
    BATCHED("batched", CommitMode.BATCHED, true),
    FASTPATH("fastpath", CommitMode.LOW_LATENCY, true),
    RAW("raw", null, false),
    /**
     * Raw HBase whose client, before each transaction's operations, does a BEGIN round trip to a low-latency TSO and
     * drops the timestamp, outside the measured latency, as a transaction's operations follow its BEGIN. What comes
     * before an HBase call changes its price on a small machine (docs/benchmarks-history.md, "The gap before a write"): this
     * baseline pays what a transaction's operations pay for theirs, so a ratio over it compares like with like.
     */
    RAW_AFTER_BEGIN("raw-after-begin", CommitMode.LOW_LATENCY, false);

    private final String label;
    private final CommitMode commitMode;
    private final boolean transactional;

    TxMode(String label, CommitMode commitMode, boolean transactional) {
        this.label = label;
        this.commitMode = commitMode;
        this.transactional = transactional;
    }

    public String label() {
        return label;
    }

    /** The commit mode of the TSO this mode needs, or null when it needs none (raw HBase). */
    public CommitMode commitMode() {
        return commitMode;
    }

    /** Whether the operations run in Tidemark transactions (false for the raw HBase baselines). */
    public boolean isTransactional() {
        return transactional;
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
