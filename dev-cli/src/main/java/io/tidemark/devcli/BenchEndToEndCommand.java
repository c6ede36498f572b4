package io.tidemark.devcli;

import io.tidemark.bench.e2e.E2eOptions;
import io.tidemark.bench.e2e.E2eResult;
import io.tidemark.bench.e2e.EndToEndBenchmark;
import io.tidemark.bench.report.ReportWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.concurrent.Callable;

/** "bench e2e": single-key transactions through Tidemark in both modes, and plain HBase for reference. */
@Command(name = "e2e", mixinStandardHelpOptions = true,
        description = {"Latency of single-key transactions (50%% reads, 50%% writes, uniform keys) with Tidemark "
                + "low-latency, Tidemark batched and raw HBase.", "On an existing cluster (--hbase-site) only its TSO's "
                + "commit mode is measured, and raw HBase.", "Defaults take about 2 minutes."})
final class BenchEndToEndCommand implements Callable<Integer> {

    private static final int DEFAULT_SECONDS = 20;

    @Mixin
    private BenchOptions common;

    @Mixin
    private BenchClusterOptions cluster;

    @Mixin
    private PostCommitOption postCommit;

    @Option(names = "--threads", defaultValue = "4", paramLabel = "<n>",
            description = "Client threads (default: ${DEFAULT-VALUE}).")
    private int threads;

    @Option(names = "--rows", defaultValue = "10000", paramLabel = "<n>",
            description = "Preloaded rows the keys are drawn from (default: ${DEFAULT-VALUE}).")
    private int rows;

    @Option(names = "--value-bytes", defaultValue = "1024", paramLabel = "<n>",
            description = "Size of every written value (default: ${DEFAULT-VALUE}).")
    private int valueBytes;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (threads < 1 || rows < 1 || valueBytes < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--threads and --rows must be at least 1 and --value-bytes not negative");
        }
        E2eOptions options = new E2eOptions(threads, rows, valueBytes, postCommit.mode(), common.warmup(spec.commandLine()),
                common.duration(spec.commandLine(), DEFAULT_SECONDS),
                common.output != null ? common.output : ReportWriter.defaultFolder(EndToEndBenchmark.NAME));
        // Three scenarios at most (the existing cluster's TSO mode and raw HBase on an existing cluster).
        long plannedSeconds = 3 * (options.warmup().toSeconds() + options.duration().toSeconds());
        List<E2eResult> results = BenchmarkRunner.onTarget(spec.commandLine(), EndToEndBenchmark.NAME,
                plannedSeconds, cluster, List.of(), (target, progress) ->
                        new EndToEndBenchmark(target, options, System.out).run());
        System.out.println();
        System.out.print(EndToEndBenchmark.table(results).toText());
        System.out.println();
        System.out.println("Results written to " + options.outputFolder().toAbsolutePath());
        return 0;
    }
}
