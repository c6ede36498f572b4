package io.tidemark.devcli;

import picocli.CommandLine.Option;

/** {@code --threads} of the benchmarks that run their client threads afresh for each mode and case: 1 by default. */
final class ThreadsPerRunOption {

    @Option(names = "--threads", defaultValue = "1", paramLabel = "<n>",
            description = "Client threads per run (default: ${DEFAULT-VALUE}).")
    private int threads;

    /** The threads as given; the benchmark's options refuse fewer than 1. */
    int count() {
        return threads;
    }
}
