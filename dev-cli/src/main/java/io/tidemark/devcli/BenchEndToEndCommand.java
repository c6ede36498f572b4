package io.tidemark.devcli;

import io.tidemark.bench.e2e.E2eOptions;
import io.tidemark.bench.e2e.E2eResult;
import io.tidemark.bench.e2e.EndToEndBenchmark;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.concurrent.Callable;

/**
 * "bench e2e": single-key transactions through Tidemark in both modes and on its fast path, and plain HBase for
 * reference.
 */
@Command(name = "e2e", mixinStandardHelpOptions = true,
        description = {"Latency of single-key transactions (50%% reads, 50%% writes, uniform keys) with Tidemark "
                + "low-latency, Tidemark batched, Tidemark's fast path and raw HBase (back to back, and each right "
                + "after an untimed BEGIN round trip), with each p50 over the raw ones.", "On an existing cluster "
                + "(--hbase-site) only its TSO's commit mode is measured, the fast path and raw HBase.",
                "Defaults take about 4 minutes."})
final class BenchEndToEndCommand implements Callable<Integer> {

    private static final int DEFAULT_SECONDS = 20;

    @Mixin
    private BenchOptions bench;

    @Mixin
    private PostCommitOption postCommit;

    @Option(names = "--threads", defaultValue = "4", paramLabel = "<n>",
            description = "Client threads (default: ${DEFAULT-VALUE}).")
    private int threads;

    @Option(names = "--rows", defaultValue = "10000", paramLabel = "<n>",
            description = "Preloaded rows the keys are drawn from (default: ${DEFAULT-VALUE}).")
    private int rows;

    @Mixin
    private WrittenValueOption value;

    @Override
    public Integer call() throws Exception {
        if (threads < 1 || rows < 1 || value.bytes() < 0) {
            throw bench.usageError("--threads and --rows must be at least 1 and --value-bytes not negative");
        }
        E2eOptions options = new E2eOptions(threads, rows, value.bytes(), postCommit.mode(), bench.warmup(),
                bench.duration(DEFAULT_SECONDS), bench.outputOr(EndToEndBenchmark.NAME));
        // Five scenarios at most (four on an existing cluster: its TSO's mode, the fast path and raw HBase twice).
        long plannedSeconds = 5 * (options.warmup().toSeconds() + options.duration().toSeconds());
        List<E2eResult> results = BenchmarkRunner.onTarget(bench, EndToEndBenchmark.NAME, plannedSeconds, List.of(),
                (target, progress) -> new EndToEndBenchmark(target, options, System.out).run());
        System.out.println();
        BenchmarkRunner.printResults(EndToEndBenchmark.table(results).toText(), options.outputFolder());
        return 0;
    }
}
