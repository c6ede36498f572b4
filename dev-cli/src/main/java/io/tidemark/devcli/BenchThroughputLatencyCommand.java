package io.tidemark.devcli;

import io.tidemark.bench.throughput.LoadPoint;
import io.tidemark.bench.throughput.ThroughputLatencyBenchmark;
import io.tidemark.bench.throughput.ThroughputLatencyOptions;
import io.tidemark.bench.tso.BackgroundRecords;
import io.tidemark.bench.txn.TxMode;
import io.tidemark.cli.ChoiceConverter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** "bench throughput-latency": the paper's main figure, latency vs TSO throughput per commit mode. */
@Command(name = "throughput-latency", mixinStandardHelpOptions = true,
        description = {"End-to-end latency of transactions of 1, 5 and 10 operations while an open-loop generator "
                + "loads the TSO with BEGIN/COMMIT pairs, swept from none to saturation; plotted against the "
                + "measured TSO throughput, for generic (low-latency) and batched mode.",
                "In generic mode each background pair writes its commit record, as real low-latency clients do "
                        + "(--background with-commit-records), or none (tso-only); the batched TSO writes them "
                        + "itself.",
                "Defaults take about 3.5 minutes."})
final class BenchThroughputLatencyCommand implements Callable<Integer> {

    private static final int DEFAULT_SECONDS = 10;

    @Mixin
    private BenchOptions bench;

    @Mixin
    private WorkloadOptions workload;

    @Option(names = "--threads-per-size", defaultValue = "1", paramLabel = "<n>",
            description = "Foreground client threads per transaction size (default: ${DEFAULT-VALUE}).")
    private int threadsPerSize;

    @Mixin
    private TransactionSizesOption sizes;

    @Option(names = "--modes", defaultValue = "generic,batched", split = ",", paramLabel = "<mode>",
            converter = TxModeConverter.class,
            description = "Modes, comma-separated: generic, batched (default: ${DEFAULT-VALUE}).")
    private List<TxMode> modes;

    @Option(names = "--load-steps", defaultValue = "0.2,0.4,0.6,0.8", split = ",", paramLabel = "<fraction>",
            description = "Background loads between none and saturation, as fractions of the saturation rate "
                    + "(default: ${DEFAULT-VALUE}).")
    private List<Double> loadSteps;

    @Option(names = "--connections", defaultValue = "4", paramLabel = "<n>",
            description = "TSO connections of the background load (default: ${DEFAULT-VALUE}).")
    private int connections;

    @Option(names = "--window", defaultValue = "16", paramLabel = "<n>",
            description = "Pairs each background connection keeps outstanding at saturation "
                    + "(default: ${DEFAULT-VALUE}).")
    private int window;

    @Option(names = "--background", defaultValue = "with-commit-records", paramLabel = "<kind>",
            converter = BackgroundConverter.class,
            description = "What background pairs do after COMMIT in generic mode: with-commit-records (write their "
                    + "commit records, as real low-latency clients do) or tso-only (load on the TSO alone, which "
                    + "overstates what the system sustains) (default: ${DEFAULT-VALUE}).")
    private BackgroundRecords background;

    @Override
    public Integer call() throws Exception {
        ThroughputLatencyOptions options = bench.options(() -> new ThroughputLatencyOptions(modes, sizes.sizes(),
                threadsPerSize, workload.data(), workload.keyTheta, connections, window, loadSteps, background,
                bench.run(DEFAULT_SECONDS, ThroughputLatencyBenchmark.NAME)));
        List<LoadPoint> points = BenchmarkRunner.run(bench, ThroughputLatencyBenchmark.NAME,
                ThroughputLatencyBenchmark.plannedSeconds(options),
                BenchmarkRunner.commitModes(options.modes()), (target, progress) ->
                        new ThroughputLatencyBenchmark(target, options, System.out, progress).run());
        StringBuilder text = new StringBuilder(ThroughputLatencyBenchmark.table(points).toText()).append('\n');
        for (TxMode mode : options.modes()) {
            text.append(String.format(Locale.ROOT, "Saturation throughput, %s: %.0f pairs/s%n", mode.label(),
                    ThroughputLatencyBenchmark.saturationThroughput(points, mode)));
        }
        BenchmarkRunner.printResults(text.toString(), options.run().outputFolder());
        return 0;
    }

    /** Parses --background: with-commit-records or tso-only. */
    static final class BackgroundConverter extends ChoiceConverter<BackgroundRecords> {
        BackgroundConverter() {
            super(BackgroundRecords::fromLabel);
        }
    }
}
