package io.tidemark.ycsb;

import io.tidemark.protocol.CommitMode;

import java.util.Locale;

/** How the binding runs YCSB's operations; chosen by {@value #PROPERTY}. */
public enum BindingMode {

    /** Tidemark transactions; the TSO must be in low-latency mode (the client writes its own commit record). */
    GENERIC("generic", CommitMode.LOW_LATENCY),
    /** Tidemark transactions; the TSO must be in batched mode (it writes commit records in batches). */
    BATCHED("batched", CommitMode.BATCHED),
    /** One-key transactions through the region-server fast path; arrives with the fast-path issue (#4). */
    FASTPATH("fastpath", null),
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
        String wanted = value.trim().toLowerCase(Locale.ROOT);
        for (BindingMode mode : values()) {
            if (mode.propertyValue.equals(wanted)) {
                return mode;
            }
        }
        throw new IllegalArgumentException(PROPERTY + " is '" + value + "'; use one of generic, batched, fastpath,"
                + " raw");
    }
}
