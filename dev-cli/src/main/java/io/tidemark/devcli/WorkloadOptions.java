package io.tidemark.devcli;

import io.tidemark.bench.txn.TxEnvironment;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** The data and key choice of the transaction benchmarks: preloaded rows, value size, Zipf skew of the keys. */
final class WorkloadOptions {

    @Mixin
    private RowsOption rows;

    @Option(names = "--value-bytes", defaultValue = "2048", paramLabel = "<n>",
            description = "Size of every value (default: ${DEFAULT-VALUE}, as in the paper).")
    int valueBytes;

    @Option(names = "--key-theta", defaultValue = "0.8", paramLabel = "<theta>",
            description = "Zipf skew of the keys, 0 for uniform (default: ${DEFAULT-VALUE}, as in the paper).")
    double keyTheta;

    /** @throws IllegalArgumentException naming what is wrong */
    TxEnvironment.DataSpec data() {
        if (!(keyTheta >= 0)) {
            throw new IllegalArgumentException("--key-theta must be 0 or more, got " + keyTheta);
        }
        if (rows.count() < 1) {
            throw new IllegalArgumentException("--rows must be at least 1, got " + rows.count());
        }
        if (valueBytes < 0) {
            throw new IllegalArgumentException("--value-bytes must not be negative, got " + valueBytes);
        }
        return new TxEnvironment.DataSpec(rows.count(), valueBytes);
    }
}
