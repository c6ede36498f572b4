package io.tidemark.devcli;

import io.tidemark.bench.report.ReportWriter;
import io.tidemark.bench.tls.TlsBenchmark;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;

/** "bench tls": handshake time and BEGIN+COMMIT latency with plaintext, TLS and mutual TLS on the TSO port. */
@Command(name = "tls", mixinStandardHelpOptions = true,
        description = {"Makes a throw-away CA and certificates, then for plaintext, TLS and mutual TLS starts a TSO"
                + " (in this process, in-memory storage) and measures the handshake of fresh connections and the"
                + " latency and throughput of BEGIN+COMMIT pairs. About 1 minute with the defaults."})
final class BenchTlsCommand implements Callable<Integer> {

    static final String NAME = "tls";

    @Option(names = "--handshakes", defaultValue = "200", paramLabel = "<n>",
            description = "Fresh connections measured per mode (default: ${DEFAULT-VALUE}).")
    private int handshakes;

    @Option(names = "--seconds", defaultValue = "10", paramLabel = "<seconds>",
            description = "Length of each latency and throughput measurement (default: ${DEFAULT-VALUE}).")
    private int seconds;

    @Option(names = "--threads", defaultValue = "16", paramLabel = "<n>",
            description = "Threads sharing one client for the throughput measurement (default: ${DEFAULT-VALUE}).")
    private int threads;

    @Option(names = "--output", paramLabel = "<folder>",
            description = "Folder for summary.md, results.csv and the certificates (default: bench-results/tls-<time>).")
    private Path output;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        UsageErrors.options(spec.commandLine(), () -> new TlsBenchmark(handshakes, Duration.ofSeconds(seconds),
                threads, ReportWriter.outputFolder(output, NAME), System.out)).run();
        return 0;
    }
}
