package io.tidemark.devcli;

import io.tidemark.bench.tpcc.TpccBenchmark;
import io.tidemark.bench.tpcc.TpccMix;
import io.tidemark.bench.tpcc.TpccOptions;
import io.tidemark.bench.tpcc.TpccRun;
import io.tidemark.bench.txn.TxMode;
import io.tidemark.cli.ChoiceConverter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.concurrent.Callable;

/** "bench tpcc": TPC-C New-Order (and Payment) over the transaction API, with the consistency check after it. */
@Command(name = "tpcc", mixinStandardHelpOptions = true,
        description = {"Loads scaled TPC-C tables through Tidemark transactions, runs New-Order (and Payment) "
                + "terminals at each thread count and mode, reports committed New-Orders per minute (tpmC-style, "
                + "not an official result), p50/p99 latency and aborts by reason, then checks TPC-C consistency "
                + "conditions 1-4: exit code 1 when one is violated.",
                "Defaults take about 2.5 minutes."})
final class BenchTpccCommand implements Callable<Integer> {

    private static final int DEFAULT_SECONDS = 10;

    @Mixin
    private BenchOptions bench;

    @Option(names = "--warehouses", defaultValue = "1", paramLabel = "<n>",
            description = "Warehouses (default: ${DEFAULT-VALUE}).")
    private int warehouses;

    @Option(names = "--scale", defaultValue = "0.1", paramLabel = "<fraction>",
            description = "Fraction of TPC-C's cardinalities (100,000 items, 3,000 customers and orders per "
                    + "district) to load (default: ${DEFAULT-VALUE}).")
    private double scale;

    @Option(names = "--threads", defaultValue = "1,2,4", split = ",", paramLabel = "<n>",
            description = "Terminal threads, one run per entry, comma-separated (default: ${DEFAULT-VALUE}).")
    private List<Integer> threads;

    @Option(names = "--mix", defaultValue = "new-order+payment", paramLabel = "<mix>", converter = MixConverter.class,
            description = "new-order, or new-order+payment (TPC-C's 45 : 43) (default: ${DEFAULT-VALUE}).")
    private TpccMix mix;

    @Option(names = {"--modes", "--mode"}, defaultValue = "generic,batched", split = ",", paramLabel = "<mode>",
            converter = TxModeConverter.class,
            description = "Modes, comma-separated: generic, batched; fastpath is refused (New-Order's district "
                    + "counter must commit with its order) (default: ${DEFAULT-VALUE}).")
    private List<TxMode> modes;

    @Override
    public Integer call() throws Exception {
        TpccOptions options = bench.options(() -> new TpccOptions(warehouses, scale, threads, mix, modes,
                bench.run(DEFAULT_SECONDS, TpccBenchmark.NAME)));
        TpccRun run = BenchmarkRunner.run(bench, TpccBenchmark.NAME,
                TpccBenchmark.plannedSeconds(options), BenchmarkRunner.commitModes(options.modes()),
                (target, progress) -> new TpccBenchmark(target, options, System.out, progress).run());
        BenchmarkRunner.printResults(TpccBenchmark.table(run.results()).toText(), options.run().outputFolder());
        if (!run.consistent()) {
            run.violations().forEach((mode, found) -> found.forEach(v ->
                    System.err.println("TPC-C consistency violated (" + mode + "): " + v)));
            return 1;
        }
        System.out.println("TPC-C consistency conditions 1-4 hold in every mode.");
        return 0;
    }

    /** Parses a transaction mix: new-order or new-order+payment. */
    static final class MixConverter extends ChoiceConverter<TpccMix> {
        MixConverter() {
            super(TpccMix::fromLabel);
        }
    }
}
