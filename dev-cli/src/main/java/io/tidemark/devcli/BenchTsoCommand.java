package io.tidemark.devcli;

import io.tidemark.bench.tso.TsoBenchmark;
import io.tidemark.bench.tso.TsoBenchmarkOptions;
import io.tidemark.bench.tso.TsoRunResult;
import io.tidemark.protocol.CommitMode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.concurrent.Callable;

/** "bench tso": BEGIN + COMMIT pairs against the TSO in both commit modes. */
@Command(name = "tso", mixinStandardHelpOptions = true,
        description = {"TSO throughput and BEGIN/COMMIT latency: low-latency alone, low-latency plus the client's "
                + "commit record, batched, and low-latency at a fixed rate (half its saturation rate by default); "
                + "Apache Omid's low-latency TSO alone and with its clients' commit records on request (--omid); "
                + "then a client sweep (low-latency TSO alone with 1, 2, 4, 8, 16, 32 clients), plotted.",
                "Starts its own TSOs of both commit modes, so it runs on an embedded HBase only (no --hbase-site).",
                "Defaults take about 3.5 minutes."})
final class BenchTsoCommand implements Callable<Integer> {

    private static final int DEFAULT_SECONDS = 15;

    @Mixin
    private BenchOptions bench;

    @Option(names = "--clients", defaultValue = "8", paramLabel = "<n>",
            description = "Concurrent clients, each with its own TSO connection (default: ${DEFAULT-VALUE}).")
    private int clients;

    @Option(names = "--window", defaultValue = "8", paramLabel = "<n>",
            description = "BEGIN+COMMIT pairs each client keeps outstanding (default: ${DEFAULT-VALUE}).")
    private int window;

    @Option(names = "--rate", defaultValue = "0", paramLabel = "<pairs/s>",
            description = "Pairs/s of the rate-limited run; 0 means half the measured saturation rate "
                    + "(default: ${DEFAULT-VALUE}).")
    private long rate;

    @Option(names = "--sweep-clients", defaultValue = "1,2,4,8,16,32", split = ",", paramLabel = "<n>",
            description = "Client counts of the sweep, comma-separated; 0 skips the sweep "
                    + "(default: ${DEFAULT-VALUE}).")
    private List<Integer> sweepClients;

    @Option(names = "--omid", description = "Adds Apache Omid 1.1.3's TSO in low-latency mode, in this JVM: alone, and "
            + "with each commit's record written as Omid's client does, with --clients Omid clients each keeping "
            + "--window pairs outstanding.")
    private boolean omid;

    @Override
    public Integer call() throws Exception {
        TsoBenchmarkOptions options = options();
        List<TsoRunResult> results = BenchmarkRunner.run(bench, TsoBenchmark.NAME,
                TsoBenchmark.plannedSeconds(options), List.of(CommitMode.LOW_LATENCY, CommitMode.BATCHED),
                (target, progress) -> new TsoBenchmark(target, options, System.out, progress).run());
        BenchmarkRunner.printResults(TsoBenchmark.table(results).toText(), options.run().outputFolder());
        return 0;
    }

    /** The options as parsed; a usage error when they do not make a run. */
    TsoBenchmarkOptions options() {
        bench.cluster().validate(bench.commandLine());
        if (bench.cluster().existingCluster()) {
            throw bench.usageError(TsoBenchmark.NEEDS_EMBEDDED_HBASE);
        }
        if (clients < 1 || window < 1) {
            throw bench.usageError("--clients and --window must be at least 1");
        }
        if (rate < 0) {
            throw bench.usageError("--rate must not be negative, got " + rate);
        }
        List<Integer> sweep = sweepClients.equals(List.of(0)) ? List.of() : sweepClients;
        if (sweep.stream().anyMatch(n -> n < 1)) {
            throw bench.usageError("--sweep-clients must list client counts of at least 1 (or be 0 for no sweep), "
                    + "got " + sweepClients);
        }
        return new TsoBenchmarkOptions(clients, window, bench.run(DEFAULT_SECONDS, TsoBenchmark.NAME), rate, sweep,
                omid);
    }
}
