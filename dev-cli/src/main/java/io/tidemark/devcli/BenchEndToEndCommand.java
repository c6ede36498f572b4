package io.tidemark.devcli;

import io.tidemark.bench.e2e.E2eOptions;
import io.tidemark.bench.e2e.E2eResult;
import io.tidemark.bench.e2e.EndToEndBenchmark;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.concurrent.Callable;

/**
 * "bench e2e": transactions of one or more operations through Tidemark in both modes, on its fast path and, on request,
 * through Apache Omid, and plain HBase for reference.
 */
@Command(name = "e2e", mixinStandardHelpOptions = true,
        description = {"Latency of transactions of --size operations (each a read or a write, --writes of them "
                + "writes, on uniform or --adjacent-keys) with Tidemark low-latency (blocking API, and non-blocking "
                + "with one and with --in-flight transactions in flight per thread), Tidemark batched, single-region "
                + "commits (with and without lazy begin), Tidemark's fast path "
                + "(size 1 only), Apache Omid low-latency (--omid) and raw HBase (back to back, and each right after "
                + "an untimed BEGIN round trip), with each p50 over the raw ones.", "On an existing cluster "
                + "(--hbase-site) only its TSO's commit mode is measured, the fast path and raw HBase.",
                "Defaults take about 5 minutes."})
final class BenchEndToEndCommand implements Callable<Integer> {

    private static final int DEFAULT_SECONDS = 20;

    @Mixin
    private BenchOptions bench;

    @Mixin
    private PostCommitOption postCommit;

    @Option(names = "--threads", defaultValue = "4", paramLabel = "<n>",
            description = "Client threads (default: ${DEFAULT-VALUE}).")
    private int threads;

    @Mixin
    private RowsOption rowsOption;

    @Option(names = "--size", defaultValue = "1", paramLabel = "<n>",
            description = "Operations per transaction (default: ${DEFAULT-VALUE}).")
    private int size;

    @Option(names = "--regions", defaultValue = "1", paramLabel = "<n>",
            description = "Regions of each table, split into equal key ranges (default: ${DEFAULT-VALUE}).")
    private int regions;

    @Option(names = "--omid", description = "Adds Apache Omid 1.1.3 in low-latency mode: its TSO in this JVM, its "
            + "client with --post-commit as well (embedded HBase only).")
    private boolean omid;

    @Option(names = "--in-flight", defaultValue = "" + E2eOptions.DEFAULT_NON_BLOCKING_IN_FLIGHT, paramLabel = "<n>",
            description = "Transactions each client thread keeps in flight in the second scenario of the non-blocking"
                    + " API; 1 leaves it out (default: ${DEFAULT-VALUE}).")
    private int inFlight;

    @Option(names = "--writes", defaultValue = "" + E2eOptions.DEFAULT_WRITE_FRACTION, paramLabel = "<fraction>",
            description = "The fraction of operations that write, from 0 to 1 (default: ${DEFAULT-VALUE}).")
    private double writes;

    @Option(names = "--adjacent-keys", description = "A transaction's operations go to consecutive keys from a "
            + "uniform first one, so that its rows fall in one region (but where they cross a boundary) and its writes"
            + " commit in their region; raw HBase sends a transaction of writes only as one multi-put.")
    private boolean adjacentKeys;

    @Option(names = "--side-by-side", description = "Runs only raw HBase, the fast path (--size 1), single-region "
            + "commit and lazy begin, all at once: each client thread runs each transaction on every one in turn, so "
            + "that their ratios are measured at the same moments of the machine's load.")
    private boolean sideBySide;

    @Option(names = "--read-modify-write", description = "Each write reads its key first, in the same transaction "
            + "(raw HBase: a get, then a put; the fast path: getForUpdate, then putIfUnchanged).")
    private boolean readModifyWrite;

    @Mixin
    private WrittenValueOption value;

    @Override
    public Integer call() throws Exception {
        E2eOptions options = options();
        List<E2eResult> results = BenchmarkRunner.onTarget(bench, EndToEndBenchmark.NAME,
                EndToEndBenchmark.plannedSeconds(options), List.of(),
                (target, progress) -> new EndToEndBenchmark(target, options, System.out).run());
        System.out.println();
        BenchmarkRunner.printResults(EndToEndBenchmark.table(results).toText(), options.run().outputFolder());
        return 0;
    }

    /** The options as parsed; a usage error when they do not make a run. */
    E2eOptions options() {
        int rows = rowsOption.count();
        if (threads < 1 || rows < 1 || value.bytes() < 0) {
            throw bench.usageError("--threads and --rows must be at least 1 and --value-bytes not negative");
        }
        if (size < 1) {
            throw bench.usageError("--size must be at least 1 operation, got " + size);
        }
        if (regions < 1 || regions > rows) {
            throw bench.usageError("--regions must be from 1 to --rows (" + rows + "), got " + regions);
        }
        if (!(writes >= 0 && writes <= 1)) {
            throw bench.usageError("--writes must be a fraction from 0 to 1, got " + writes);
        }
        if (adjacentKeys && size > rows) {
            throw bench.usageError("--adjacent-keys needs --rows (" + rows + ") of at least --size (" + size + ")");
        }
        if (inFlight < 1) {
            throw bench.usageError("--in-flight must be at least 1 transaction, got " + inFlight);
        }
        if (sideBySide && omid) {
            throw bench.usageError("--side-by-side and --omid do not go together: Omid runs as a scenario of its own");
        }
        if (omid) {
            bench.cluster().validate(bench.commandLine());
            if (bench.cluster().existingCluster()) {
                throw bench.usageError(EndToEndBenchmark.OMID_NEEDS_EMBEDDED_HBASE);
            }
        }
        return new E2eOptions(threads, rows, value.bytes(), size, regions, postCommit.mode(), omid,
                bench.run(DEFAULT_SECONDS, EndToEndBenchmark.NAME), inFlight, writes, adjacentKeys,
                sideBySide, readModifyWrite);
    }
}
