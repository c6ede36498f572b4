package io.tidemark.devcli;

import io.tidemark.bench.contention.ContentionBenchmark;
import io.tidemark.bench.contention.ContentionOptions;
import io.tidemark.bench.contention.ContentionResult;
import io.tidemark.bench.txn.TxEnvironment;
import io.tidemark.protocol.CommitMode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.concurrent.Callable;

/** "bench contention": abort rate and throughput vs key skew. */
@Command(name = "contention", mixinStandardHelpOptions = true,
        description = {"Abort rate and committed throughput of 5-operation transactions (generic mode, 50%% reads, "
                + "50%% updates) as the Zipf skew of the keys grows from 0.5 to 1.4.",
                "Defaults take about 2 minutes."})
final class BenchContentionCommand implements Callable<Integer> {

    private static final int DEFAULT_SECONDS = 15;

    @Mixin
    private BenchOptions bench;

    @Option(names = "--thetas", defaultValue = "0.5,0.7,0.9,1.1,1.4", split = ",", paramLabel = "<theta>",
            description = "Zipf skews of the keys, comma-separated (default: ${DEFAULT-VALUE}).")
    private List<Double> thetas;

    @Option(names = "--size", defaultValue = "5", paramLabel = "<k>",
            description = "Operations per transaction (default: ${DEFAULT-VALUE}).")
    private int size;

    @Option(names = "--threads", defaultValue = "8", paramLabel = "<n>",
            description = "Client threads (default: ${DEFAULT-VALUE}).")
    private int threads;

    @Mixin
    private RowsOption rows;

    @Option(names = "--value-bytes", defaultValue = "2048", paramLabel = "<n>",
            description = "Size of every value (default: ${DEFAULT-VALUE}).")
    private int valueBytes;

    @Override
    public Integer call() throws Exception {
        ContentionOptions options = bench.options(() -> new ContentionOptions(thetas, size, threads,
                new TxEnvironment.DataSpec(rows.count(), valueBytes),
                bench.run(DEFAULT_SECONDS, ContentionBenchmark.NAME)));
        List<ContentionResult> results = BenchmarkRunner.run(bench, ContentionBenchmark.NAME,
                ContentionBenchmark.plannedSeconds(options),
                List.of(CommitMode.LOW_LATENCY), (target, progress) ->
                        new ContentionBenchmark(target, options, System.out, progress).run());
        BenchmarkRunner.printResults(ContentionBenchmark.table(results).toText(), options.run().outputFolder());
        return 0;
    }
}
