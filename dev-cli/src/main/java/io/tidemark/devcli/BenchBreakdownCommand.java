package io.tidemark.devcli;

import io.tidemark.bench.breakdown.BreakdownBenchmark;
import io.tidemark.bench.breakdown.BreakdownOptions;
import io.tidemark.bench.breakdown.BreakdownResult;
import io.tidemark.bench.txn.TxMode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.concurrent.Callable;

/** "bench breakdown": where a transaction's time goes, begin / operations / commit. */
@Command(name = "breakdown", mixinStandardHelpOptions = true,
        description = {"Mean time in begin, data operations and commit (split into COMMIT at the TSO, commit "
                + "record and post-commit) for single-read, single-write, read-modify-write, 5- and 10-operation "
                + "transactions, as stacked bars, per mode.",
                "Defaults take about 3 minutes."})
final class BenchBreakdownCommand implements Callable<Integer> {

    private static final int DEFAULT_SECONDS = 10;

    @Mixin
    private BenchOptions bench;

    @Mixin
    private WorkloadOptions workload;

    @Mixin
    private PostCommitOption postCommit;

    @Mixin
    private ThreadsPerRunOption threads;

    @Option(names = "--modes", defaultValue = "generic,batched", split = ",", paramLabel = "<mode>",
            converter = TxModeConverter.class,
            description = "Modes, comma-separated: generic, batched, raw (plain HBase, the baseline), "
                    + "raw-after-begin (plain HBase, each transaction's operations right after a BEGIN round trip "
                    + "that is not timed); with a raw mode the results include each transaction's ratio over it "
                    + "(default: ${DEFAULT-VALUE}).")
    private List<TxMode> modes;

    @Override
    public Integer call() throws Exception {
        BreakdownOptions options = bench.options(() -> new BreakdownOptions(modes, threads.count(), workload.data(),
                workload.keyTheta, postCommit.mode(), bench.run(DEFAULT_SECONDS, BreakdownBenchmark.NAME)));
        List<BreakdownResult> results = BenchmarkRunner.run(bench, BreakdownBenchmark.NAME,
                BreakdownBenchmark.plannedSeconds(options),
                BenchmarkRunner.commitModes(options.modes()), (target, progress) ->
                        new BreakdownBenchmark(target, options, System.out, progress).run());
        BenchmarkRunner.printResults(BreakdownBenchmark.table(results).toText() + BreakdownBenchmark.ratios(results)
                .map(ratios -> System.lineSeparator() + ratios.toText()).orElse(""), options.run().outputFolder());
        return 0;
    }
}
