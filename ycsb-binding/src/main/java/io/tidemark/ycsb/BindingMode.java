package io.tidemark.ycsb;

import io.tidemark.config.Choices;
import io.tidemark.protocol.CommitMode;

/** How the binding runs YCSB's operations; chosen by {@value #PROPERTY}. */
public enum BindingMode {

    /** Tidemark transactions; the TSO must be in low-latency mode (the client writes its own commit record). */
    GENERIC("generic", CommitMode.LOW_LATENCY),
    /** Tidemark transactions; the TSO must be in batched mode (it writes commit records in batches). */
    BATCHED("batched", CommitMode.BATCHED),
    /**
     * Single-key operations as fast-path transactions inside the region server (no TSO round trip); scans and
     * explicit transactions of several operations as generic transactions, so the TSO must be in low-latency mode.
     */
    FASTPATH("fastpath", CommitMode.LOW_LATENCY),
    /** Plain HBase Table operations, no transactions: the baseline. */
    RAW("raw", null);

    public static final String PROPERTY = "tidemark.mode";
    public static final BindingMode DEFAULT = GENERIC;

    private final String propertyValue;
    private final CommitMode requiredCommitMode;

    BindingMode(String propertyValue, CommitMode requiredCommitMode) {
        this.propertyValue = propertyValue;
        this.requiredCommitMode = requiredCommitMode;
    }

    /** The value of {@value #PROPERTY} that selects this mode. */
    public String propertyValue() {
        return propertyValue;
    }

    public boolean isTransactional() {
        return this != RAW;
    }

    /** Whether single-key operations run on the fast path (and the table needs its coprocessor). */
    public boolean usesFastPath() {
        return this == FASTPATH;
    }

    /** The commit mode the TSO must announce for this binding mode to measure what its name says. */
    CommitMode requiredCommitMode() {
        return requiredCommitMode;
    }

    /**
     * @throws IllegalArgumentException naming the property and the accepted values when {@code value} is none of them
     */
    public static BindingMode parse(String value) {
        if (value == null) {
            return DEFAULT;
        }
        return Choices.parse(values(), BindingMode::propertyValue, value, PROPERTY + " value");
    }
}
