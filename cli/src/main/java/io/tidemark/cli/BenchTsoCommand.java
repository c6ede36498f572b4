package io.tidemark.cli;

import io.tidemark.bench.report.ReportWriter;
import io.tidemark.bench.tso.TsoBenchmark;
import io.tidemark.bench.tso.TsoBenchmarkOptions;
import io.tidemark.bench.tso.TsoRunResult;
import io.tidemark.embedded.EmbeddedHBase;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.concurrent.Callable;

/** "bench tso": BEGIN + COMMIT pairs against the TSO in both commit modes. */
@Command(name = "tso", mixinStandardHelpOptions = true,
        description = {"TSO throughput and BEGIN/COMMIT latency: low-latency alone, low-latency plus the client's "
                + "commit record, batched, and low-latency at a fixed rate (half its saturation rate by default).",
                "Defaults take about 1.5 minutes."})
final class BenchTsoCommand implements Callable<Integer> {

    private static final int DEFAULT_SECONDS = 15;

    @Mixin
    private BenchOptions common;

    @Option(names = "--clients", defaultValue = "8", paramLabel = "<n>",
            description = "Concurrent clients, each with its own TSO connection (default: ${DEFAULT-VALUE}).")
    private int clients;

    @Option(names = "--window", defaultValue = "8", paramLabel = "<n>",
            description = "BEGIN+COMMIT pairs each client keeps outstanding (default: ${DEFAULT-VALUE}).")
    private int window;

    @Option(names = "--rate", defaultValue = "0", paramLabel = "<pairs/s>",
            description = "Pairs/s of the rate-limited run; 0 means half the measured saturation rate "
                    + "(default: ${DEFAULT-VALUE}).")
    private long rate;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (clients < 1 || window < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--clients and --window must be at least 1");
        }
        if (rate < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--rate must not be negative, got " + rate);
        }
        TsoBenchmarkOptions options = new TsoBenchmarkOptions(clients, window, common.warmup(spec.commandLine()),
                common.duration(spec.commandLine(), DEFAULT_SECONDS), rate,
                common.output != null ? common.output : ReportWriter.defaultFolder(TsoBenchmark.NAME));
        System.out.println("Starting an embedded HBase...");
        List<TsoRunResult> results;
        try (EmbeddedHBase hbase = EmbeddedHBase.start()) {
            results = new TsoBenchmark(hbase.connection(), options, System.out).run();
        }
        System.out.println();
        System.out.print(TsoBenchmark.table(results).toText());
        System.out.println();
        System.out.println("Results written to " + options.outputFolder().toAbsolutePath());
        return 0;
    }
}
