package io.tidemark.bench.txn;

import io.tidemark.config.Choices;
import io.tidemark.protocol.CommitMode;

import java.time.Duration;

/**
 * How the benchmark transactions run: Tidemark with the low-latency TSO (the client writes its commit record), Tidemark
 * with the batched TSO (the TSO writes commit records in batches, classic Omid's way), Tidemark with the fast path
 * (transactions of one operation run inside the region server with no TSO round trip, longer ones as generic
 * transactions with the low-latency TSO), or plain HBase gets and puts with no transaction at all (the baseline),
 * either back to back or each group of operations after a pause as long as a BEGIN round trip.
 */
public enum TxMode {
    GENERIC("generic", CommitMode.LOW_LATENCY, Duration.ZERO),
    BATCHED("batched", CommitMode.BATCHED, Duration.ZERO),
    FASTPATH("fastpath", CommitMode.LOW_LATENCY, Duration.ZERO),
    RAW("raw", null, Duration.ZERO),
    /**
     * Raw HBase whose client thread parks before each transaction's operations, outside the measured latency, as a
     * transaction's client parks for its BEGIN reply (a loopback round trip takes 0.15 to 0.3 ms on the development
     * machine). On a machine whose cores go idle, an HBase write after such a pause costs about twice a write sent
     * right after the previous one (docs/benchmarks.md, "The gap before a write"); this baseline pays that price
     * too, so a ratio over it compares like with like.
     */
    RAW_PAUSED("raw-paused", null, Duration.ofNanos(200_000));

    private final String label;
    private final CommitMode commitMode;
    private final Duration pauseBeforeOperations;

    TxMode(String label, CommitMode commitMode, Duration pauseBeforeOperations) {
        this.label = label;
        this.commitMode = commitMode;
        this.pauseBeforeOperations = pauseBeforeOperations;
    }

    public String label() {
        return label;
    }

    /** The TSO's commit mode, or null for raw HBase. */
    public CommitMode commitMode() {
        return commitMode;
    }

    /** How long a raw HBase client parks before each transaction's operations, not counted in its latency. */
    public Duration pauseBeforeOperations() {
        return pauseBeforeOperations;
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
