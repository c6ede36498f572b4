package io.tidemark.devcli;

import io.tidemark.bench.fanout.FanoutApi;
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

/**
 * "bench fanout": transactions of n operations issued with at most f in flight, through an AsyncTTable and through the
 * non-blocking AsyncTransactionalTable.
 */
@Command(name = "fanout", mixinStandardHelpOptions = true,
        description = {"p50/p99 of transactions of 1, 10 and 32 operations (alternately writes and reads of distinct"
                + " rows over several regions) issued through an AsyncTTable (executor) and the non-blocking AsyncTransactionalTable with fan-out 1, 2,"
                + " 4, 8, 16 and 32, normalised to sequential issue; reports the 10-operation vs 1-operation target.",
                "Defaults take about 3 minutes."})
final class BenchFanoutCommand implements Callable<Integer> {

    private static final int DEFAULT_SECONDS = 6;

    @Mixin
    private BenchOptions bench;

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

    @Mixin
    private WrittenValueOption value;

    @Option(names = "--apis", defaultValue = "executor,non-blocking", split = ",", paramLabel = "<api>",
            description = "APIs to issue through, one series each: executor (AsyncTTable) and non-blocking"
                    + " (AsyncTransactionalTable), comma-separated (default: ${DEFAULT-VALUE}).")
    private List<String> apis;

    @Override
    public Integer call() throws Exception {
        FanoutOptions options = bench.options(() -> new FanoutOptions(operations, fanouts, regions, rows,
                value.bytes(), bench.run(DEFAULT_SECONDS, FanoutBenchmark.NAME),
                apis.stream().map(FanoutApi::of).toList()));
        List<FanoutResult> results = BenchmarkRunner.run(bench, FanoutBenchmark.NAME,
                FanoutBenchmark.plannedSeconds(options), List.of(CommitMode.LOW_LATENCY),
                (target, progress) -> new FanoutBenchmark(target, options, System.out, progress).run());
        BenchmarkRunner.printResults(FanoutBenchmark.table(results).toText(), options.run().outputFolder());
        String target = FanoutBenchmark.targetLine(results);
        if (target != null) {
            System.out.println(target);
        }
        return 0;
    }
}
