package io.tidemark.devcli;

import io.tidemark.bench.staleness.StalenessBenchmark;
import io.tidemark.bench.staleness.StalenessOptions;
import io.tidemark.bench.staleness.StalenessResult;
import io.tidemark.protocol.CommitMode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

/** "bench staleness": read-only transactions begun at the TSO against bounded staleness, under writes. */
@Command(name = "staleness", mixinStandardHelpOptions = true,
        description = {"Latency CDFs of read-only transactions of 1, 5 and 10 rows begun at the TSO, against "
                + "beginReadOnly(Staleness.atMost(10 ms, 100 ms, 1 s)), while writers commit; with the observed "
                + "snapshot age.",
                "Defaults take about 2 minutes."})
final class BenchStalenessCommand implements Callable<Integer> {

    private static final int DEFAULT_SECONDS = 5;

    @Mixin
    private BenchOptions bench;

    @Mixin
    private WorkloadOptions workload;

    @Option(names = "--keys", defaultValue = "1,5,10", split = ",", paramLabel = "<n>",
            description = "Rows per read-only transaction, comma-separated (default: ${DEFAULT-VALUE}).")
    private List<Integer> keys;

    @Option(names = "--bounds-ms", defaultValue = "10,100,1000", split = ",", paramLabel = "<ms>",
            description = "Staleness bounds in milliseconds, comma-separated; a run that begins every transaction "
                    + "at the TSO is always added (default: ${DEFAULT-VALUE}).")
    private List<Long> boundsMs;

    @Option(names = "--readers", defaultValue = "2", paramLabel = "<n>",
            description = "Reader threads (default: ${DEFAULT-VALUE}).")
    private int readers;

    @Option(names = "--writers", defaultValue = "2", paramLabel = "<n>",
            description = "Writer threads committing single-row updates meanwhile (default: ${DEFAULT-VALUE}).")
    private int writers;

    @Override
    public Integer call() throws Exception {
        StalenessOptions options = bench.options(() -> new StalenessOptions(keys,
                boundsMs.stream().map(Duration::ofMillis).toList(), readers, writers, workload.data(),
                workload.keyTheta, bench.run(DEFAULT_SECONDS, StalenessBenchmark.NAME)));
        List<StalenessResult> results = BenchmarkRunner.run(bench, StalenessBenchmark.NAME,
                StalenessBenchmark.plannedSeconds(options), List.of(CommitMode.LOW_LATENCY),
                (target, progress) -> new StalenessBenchmark(target, options, System.out, progress).run());
        BenchmarkRunner.printResults(StalenessBenchmark.table(results).toText(), options.run().outputFolder());
        return 0;
    }
}
