package io.tidemark.devcli;

import io.tidemark.bench.durability.DurabilityBenchmark;
import io.tidemark.bench.durability.DurabilityOptions;
import io.tidemark.bench.durability.DurabilityResult;
import io.tidemark.protocol.CommitMode;
import org.apache.hadoop.hbase.client.Durability;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.concurrent.Callable;

/** "bench durability": raw HBase vs Tidemark generic vs fast path under each WAL durability of the data table. */
@Command(name = "durability", mixinStandardHelpOptions = true,
        description = {"p50/p99 of raw HBase, Tidemark generic and fast-path single writes, and of 250-put batches "
                + "(raw vs one transaction), with the data table at SYNC_WAL, ASYNC_WAL and SKIP_WAL; overhead "
                + "ratios over raw HBase. Use --storage hdfs for durable numbers.",
                "Defaults take about 3 minutes."})
final class BenchDurabilityCommand implements Callable<Integer> {

    private static final int DEFAULT_SECONDS = 5;

    @Mixin
    private BenchOptions bench;

    @Mixin
    private WorkloadOptions workload;

    @Option(names = "--durabilities", defaultValue = "SYNC_WAL,ASYNC_WAL,SKIP_WAL", split = ",",
            paramLabel = "<durability>",
            description = "HBase durabilities of the data table, comma-separated: SYNC_WAL, FSYNC_WAL, ASYNC_WAL, "
                    + "SKIP_WAL (default: ${DEFAULT-VALUE}).")
    private List<Durability> durabilities;

    @Option(names = "--threads", defaultValue = "1", paramLabel = "<n>",
            description = "Client threads of the single-write runs (default: ${DEFAULT-VALUE}).")
    private int threads;

    @Option(names = "--batch", defaultValue = "250", paramLabel = "<n>",
            description = "Puts per call in the batch runs, 0 for none (default: ${DEFAULT-VALUE}).")
    private int batch;

    @Override
    public Integer call() throws Exception {
        DurabilityOptions options = bench.options(() -> new DurabilityOptions(durabilities, threads, batch,
                workload.data(), bench.run(DEFAULT_SECONDS, DurabilityBenchmark.NAME)));
        List<DurabilityResult> results = BenchmarkRunner.run(bench, DurabilityBenchmark.NAME,
                DurabilityBenchmark.plannedSeconds(options), List.of(CommitMode.LOW_LATENCY),
                (target, progress) -> new DurabilityBenchmark(target, options, System.out, progress).run());
        BenchmarkRunner.printResults(DurabilityBenchmark.table(results).toText(), options.run().outputFolder());
        return 0;
    }
}
