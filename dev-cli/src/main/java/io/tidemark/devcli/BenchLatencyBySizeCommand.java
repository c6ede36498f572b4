package io.tidemark.devcli;

import io.tidemark.bench.latency.LatencyBySizeBenchmark;
import io.tidemark.bench.latency.LatencyBySizeOptions;
import io.tidemark.bench.latency.SizeResult;
import io.tidemark.bench.txn.TxMode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.concurrent.Callable;

/** "bench latency-by-size": latency of 1-, 5- and 10-operation transactions per mode at a light load. */
@Command(name = "latency-by-size", mixinStandardHelpOptions = true,
        description = {"End-to-end latency (mean, p50, p99) of transactions of 1, 5 and 10 operations (50%% reads, "
                + "50%% updates of 2 KB values, Zipf 0.8 keys) at a light load, for Tidemark generic (low-latency "
                + "TSO), Tidemark batched (batched TSO), Tidemark fast path (size 1 only) and raw HBase.",
                LatencyBySizeBenchmark.FAST_PATH_NOTE,
                "Defaults take about 4 minutes."})
final class BenchLatencyBySizeCommand implements Callable<Integer> {

    private static final int DEFAULT_SECONDS = 10;

    @Mixin
    private BenchOptions bench;

    @Mixin
    private WorkloadOptions workload;

    @Mixin
    private ThreadsPerRunOption threads;

    @Mixin
    private TransactionSizesOption sizes;

    @Option(names = "--modes", defaultValue = "generic,batched,fastpath,raw", split = ",", paramLabel = "<mode>",
            converter = TxModeConverter.class,
            description = "Modes, comma-separated: generic, batched, fastpath, raw, raw-after-begin (plain HBase, "
                    + "each transaction's operations right after a BEGIN round trip that is not timed) (default: "
                    + "${DEFAULT-VALUE}).")
    private List<TxMode> modes;

    @Override
    public Integer call() throws Exception {
        LatencyBySizeOptions options = bench.options(() -> new LatencyBySizeOptions(modes, sizes.sizes(),
                threads.count(), workload.data(), workload.keyTheta,
                bench.run(DEFAULT_SECONDS, LatencyBySizeBenchmark.NAME)));
        List<SizeResult> results = BenchmarkRunner.run(bench, LatencyBySizeBenchmark.NAME,
                LatencyBySizeBenchmark.plannedSeconds(options),
                BenchmarkRunner.commitModes(options.modes()), (target, progress) ->
                        new LatencyBySizeBenchmark(target, options, System.out, progress).run());
        BenchmarkRunner.printResults(LatencyBySizeBenchmark.table(results).toText(), options.run().outputFolder());
        return 0;
    }
}
