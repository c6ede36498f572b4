package io.tidemark.devcli;

import picocli.CommandLine.Option;

/** {@code --value-bytes} of the benchmarks that write values of one size: 1 KB unless told otherwise. */
final class WrittenValueOption {

    @Option(names = "--value-bytes", defaultValue = "1024", paramLabel = "<n>",
            description = "Size of every written value (default: ${DEFAULT-VALUE}).")
    private int valueBytes;

    int bytes() {
        return valueBytes;
    }
}
