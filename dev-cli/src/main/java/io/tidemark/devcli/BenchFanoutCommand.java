package io.tidemark.devcli;

import io.tidemark.bench.fanout.FanoutBenchmark;
import io.tidemark.bench.fanout.FanoutOptions;
import io.tidemark.bench.fanout.FanoutResult;
import io.tidemark.protocol.CommitMode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.concurrent.Callable;

/** "bench fanout": transactions of n operations issued with at most f in flight, through an AsyncTTable. */
@Command(name = "fanout", mixinStandardHelpOptions = true,
        description = {"p50/p99 of transactions of 1, 10 and 32 operations (alternately writes and reads of distinct"
                + " rows over several regions) issued through an AsyncTTable with fan-out 1, 2, 4, 8, 16 and 32,"
                + " normalised to sequential issue; reports the 10-operation vs 1-operation target.",
                "Defaults take about 1.5 minutes."})
final class BenchFanoutCommand implements Callable<Integer> {

    private static final int DEFAULT_SECONDS = 6;

    @Mixin
    private BenchOptions common;

    @Mixin
    private BenchClusterOptions cluster;

    @Option(names = "--operations", defaultValue = "1,10,32", split = ",", paramLabel = "<n>",
            description = "Operations per transaction, comma-separated (default: ${DEFAULT-VALUE}).")
    private List<Integer> operations;

    @Option(names = "--fanouts", defaultValue = "1,2,4,8,16,32", split = ",", paramLabel = "<f>",
            description = "Most operations in flight, comma-separated; above n counts as n (default: "
                    + "${DEFAULT-VALUE}).")
    private List<Integer> fanouts;

    @Option(names = "--regions", defaultValue = "8", paramLabel = "<n>",
            description = "Regions the table is split into (default: ${DEFAULT-VALUE}).")
    private int regions;

    @Option(names = "--rows", defaultValue = "10000", paramLabel = "<n>",
            description = "Preloaded rows, chosen uniformly (default: ${DEFAULT-VALUE}).")
    private int rows;

    @Option(names = "--value-bytes", defaultValue = "1024", paramLabel = "<n>",
            description = "Size of every written value (default: ${DEFAULT-VALUE}).")
    private int valueBytes;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        FanoutOptions options;
        try {
            options = new FanoutOptions(operations, fanouts, regions, rows, valueBytes,
                    common.warmup(spec.commandLine()), common.duration(spec.commandLine(), DEFAULT_SECONDS),
                    common.outputOr(FanoutBenchmark.NAME));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        List<FanoutResult> results = BenchmarkRunner.run(spec.commandLine(), FanoutBenchmark.NAME,
                FanoutBenchmark.plannedSeconds(options), cluster, List.of(CommitMode.LOW_LATENCY),
                (target, progress) -> new FanoutBenchmark(target, options, System.out, progress).run());
        BenchmarkRunner.printResults(FanoutBenchmark.table(results).toText(), options.outputFolder());
        String target = FanoutBenchmark.targetLine(results);
        if (target != null) {
            System.out.println(target);
        }
        return 0;
    }
}
