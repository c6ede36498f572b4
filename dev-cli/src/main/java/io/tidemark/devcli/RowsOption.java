package io.tidemark.devcli;

import picocli.CommandLine.Option;

/** {@code --rows} of the benchmarks whose transactions draw their keys from a preloaded table: 10,000 by default. */
final class RowsOption {

    @Option(names = "--rows", defaultValue = "10000", paramLabel = "<n>",
            description = "Preloaded rows the keys are drawn from (default: ${DEFAULT-VALUE}).")
    private int rows;

    /** The rows as given; each benchmark's options say what too few is. */
    int count() {
        return rows;
    }
}
