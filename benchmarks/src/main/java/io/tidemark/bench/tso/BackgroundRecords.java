package io.tidemark.bench.tso;

import io.tidemark.config.Choices;

/**
 * What the background load's pairs do after a low-latency TSO said COMMITTED. With a batched TSO the question does
 * not arise: the TSO writes the commit record of every pair before it replies.
 */
public enum BackgroundRecords {

    /** Each pair writes its commit record, as a real low-latency client does: the realistic load (the default). */
    WITH_COMMIT_RECORDS("with-commit-records"),
    /** The pairs write no commit record: load on the TSO alone, which overstates what the whole system sustains. */
    TSO_ONLY("tso-only");

    public static final BackgroundRecords DEFAULT = WITH_COMMIT_RECORDS;

    private final String label;

    BackgroundRecords(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    @Override
    public String toString() {
        return label;
    }

    /** @throws IllegalArgumentException naming the accepted values */
    public static BackgroundRecords fromLabel(String label) {
        return Choices.parse(values(), BackgroundRecords::label, label, "background load");
    }
}
