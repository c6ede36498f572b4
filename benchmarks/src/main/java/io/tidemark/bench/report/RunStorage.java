package io.tidemark.bench.report;

import io.tidemark.embedded.EmbeddedStorage;

/**
 * Which storage a benchmark's HBase ran on, as every report states it: {@code label} goes into the {@code storage}
 * column of results.csv, {@code description} into summary.md.
 */
public record RunStorage(String label, String description) {

    /** For benchmarks that run no HBase at all. */
    public static final RunStorage NO_HBASE = new RunStorage("none", "no HBase: the TSO keeps its state in memory");

    public RunStorage {
        if (label == null || label.isBlank() || description == null || description.isBlank()) {
            throw new IllegalArgumentException("a storage needs a label and a description");
        }
    }

    /** An embedded HBase on {@code storage}. */
    public static RunStorage of(EmbeddedStorage storage) {
        return new RunStorage(storage.label(), "embedded HBase on the " + storage.description());
    }

    /** An HBase cluster that already ran, described by where it was found. */
    public static RunStorage externalCluster(String where) {
        return new RunStorage("external", "an existing HBase cluster (" + where + "), with whatever storage it has");
    }
}
