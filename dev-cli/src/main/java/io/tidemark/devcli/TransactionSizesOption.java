package io.tidemark.devcli;

import picocli.CommandLine.Option;

import java.util.List;

/** {@code --sizes} of the benchmarks that measure transactions of several sizes, one series each: 1, 5 and 10. */
final class TransactionSizesOption {

    @Option(names = "--sizes", defaultValue = "1,5,10", split = ",", paramLabel = "<k>",
            description = "Transaction sizes, comma-separated (default: ${DEFAULT-VALUE}).")
    private List<Integer> sizes;

    /** The sizes as given; the benchmark's options refuse one below 1. */
    List<Integer> sizes() {
        return sizes;
    }
}
