package io.tidemark.bench.e2e;

import io.tidemark.bench.BenchTarget;
import io.tidemark.bench.MeasuredBenchmark;
import io.tidemark.bench.omid.OmidTso;
import io.tidemark.bench.progress.ProgressListener;
import io.tidemark.bench.report.LatencySummary;
import io.tidemark.bench.report.ResultTable;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.table.TableFeature;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * "bench e2e": latency of transactions of one or more operations (each a read or a write, 50/50, uniform keys)
 * through Tidemark in low-latency mode, through Tidemark in batched mode, as generic transactions on a fast-path table
 * (whose writes commit with one request when they fall in one region, a single-region commit), on Tidemark's fast path
 * (single-operation transactions only), optionally through Apache Omid in low-latency mode, and as plain HBase gets and
 * puts for reference, back to back and each right after an untimed BEGIN round trip. On an existing cluster only its
 * TSO's commit mode is measured (and the fast path and raw HBase). The low-latency transactions also run through the
 * non-blocking API ({@code AsyncTransactionManager}).
 */
public final class EndToEndBenchmark extends MeasuredBenchmark<E2eOptions> {

    /** Name of the benchmark, used for the default output folder. */
    public static final String NAME = "e2e";

    private static final String NAMESPACE = "tidemark_bench_e2e";
    static final String NON_BLOCKING = "tidemark low-latency, non-blocking API";
    static final String SINGLE_REGION = "tidemark single-region commit";
    static final String LAZY_BEGIN = "tidemark single-region commit, lazy begin";
    static final String FAST_PATH = "tidemark fast path";
    static final String RAW = "raw HBase";
    static final String RAW_AFTER_BEGIN = "raw HBase after BEGIN";
    static final String OMID = "omid low-latency";
    /** Why Omid cannot be measured on an existing cluster. */
    public static final String OMID_NEEDS_EMBEDDED_HBASE = "--omid starts Apache Omid's TSO and creates its tables, "
            + "which only an embedded HBase allows: use --storage local|hdfs instead of --hbase-site";

    /**
     * {@code log} receives a line as each scenario starts, which is all the progress this benchmark reports.
     *
     * @throws IllegalArgumentException when the options ask for Omid on an existing cluster
     */
    public EndToEndBenchmark(BenchTarget target, E2eOptions options, PrintStream log) {
        super(target, options, log, ProgressListener.NONE, plannedSeconds(options));
        if (options.omid() && !target.startsTsos()) {
            throw new IllegalArgumentException(OMID_NEEDS_EMBEDDED_HBASE);
        }
    }

    /**
     * Seconds of warm-up and measurement the options add up to: eight scenarios at most (six on an existing cluster:
     * its TSO's mode, the non-blocking API twice, the fast path and raw HBase twice), and Omid; side by side, one run.
     */
    public static long plannedSeconds(E2eOptions o) {
        return (o.sideBySide() ? 1 : o.omid() ? 9 : 8) * o.run().secondsPerRun();
    }

    public List<E2eResult> run() throws IOException, InterruptedException {
        if (options.sideBySide()) {
            return runSideBySide();
        }
        List<E2eResult> results = new ArrayList<>();
        for (CommitMode mode : List.of(CommitMode.LOW_LATENCY, CommitMode.BATCHED)) {
            if (target.serves(mode)) {
                results.add(runTidemark(mode));
            }
        }
        if (target.serves(CommitMode.LOW_LATENCY)) {
            results.add(runNonBlocking(1));
            if (options.nonBlockingInFlight() > 1) {
                results.add(runNonBlocking(options.nonBlockingInFlight()));
            }
        }
        CommitMode beginAt = target.serves(CommitMode.LOW_LATENCY) ? CommitMode.LOW_LATENCY : target.externalMode();
        try (BenchTarget.Tso tso = target.tso(beginAt, NAMESPACE);
             KeyValueStore store = new TidemarkStore(target.connection(), TableName.valueOf("bench_e2e_single_region"),
                     Set.of(TableFeature.FAST_PATH), tso.clientConfig(), options.postCommit(), splitKeys())) {
            results.add(runScenario(SINGLE_REGION, store));
        }
        try (BenchTarget.Tso tso = target.tso(beginAt, NAMESPACE);
             KeyValueStore store = new TidemarkStore(target.connection(), TableName.valueOf("bench_e2e_lazy_begin"),
                     Set.of(TableFeature.FAST_PATH), lazyBegin(tso.clientConfig()), options.postCommit(),
                     splitKeys())) {
            results.add(runScenario(LAZY_BEGIN, store));
        }
        if (options.size() == 1) {
            try (BenchTarget.Tso tso = target.tso(beginAt, NAMESPACE);
                 KeyValueStore store = new FastPathStore(target.connection(), TableName.valueOf("bench_e2e_fast_path"),
                         tso.clientConfig(), splitKeys())) {
                results.add(runScenario(FAST_PATH, store));
            }
        }
        if (options.omid()) {
            try (OmidTso tso = OmidTso.start(target.connection().getConfiguration());
                 KeyValueStore store = new OmidStore(target.connection(), TableName.valueOf("bench_e2e_omid"), tso,
                         options.postCommit(), splitKeys())) {
                results.add(runScenario(OMID, store));
            }
        }
        try (KeyValueStore store = new RawHBaseStore(target.connection(), TableName.valueOf("bench_e2e_raw"),
                null, splitKeys())) {
            results.add(runScenario(RAW, store));
        }
        try (BenchTarget.Tso tso = target.tso(beginAt, NAMESPACE);
             KeyValueStore store = new RawHBaseStore(target.connection(),
                     TableName.valueOf("bench_e2e_raw_after_begin"), tso.clientConfig(), splitKeys())) {
            results.add(runScenario(RAW_AFTER_BEGIN, store));
        }
        writeResults(String.format(Locale.ROOT, "End-to-end benchmark: transactions of %d operation%s",
                options.size(), options.size() == 1 ? "" : "s"), table(results), notes(results));
        return results;
    }

    /**
     * Raw HBase, the fast path (one operation), single-region commit and lazy begin at once, each client thread running
     * each transaction on every one in turn: scenarios run one after another meet different moments of a machine's
     * load, which moved their ratios by up to 20 points where side by side they moved by 3 to 4.
     */
    private List<E2eResult> runSideBySide() throws IOException, InterruptedException {
        CommitMode beginAt = target.serves(CommitMode.LOW_LATENCY) ? CommitMode.LOW_LATENCY : target.externalMode();
        List<String> scenarios = new ArrayList<>();
        List<KeyValueStore> stores = new ArrayList<>();
        try (BenchTarget.Tso tso = target.tso(beginAt, NAMESPACE)) {
            try {
                scenarios.add(RAW);
                stores.add(new RawHBaseStore(target.connection(), TableName.valueOf("bench_e2e_raw"), null,
                        splitKeys()));
                if (options.size() == 1) {
                    scenarios.add(FAST_PATH);
                    stores.add(new FastPathStore(target.connection(), TableName.valueOf("bench_e2e_fast_path"),
                            tso.clientConfig(), splitKeys()));
                }
                scenarios.add(SINGLE_REGION);
                stores.add(new TidemarkStore(target.connection(), TableName.valueOf("bench_e2e_single_region"),
                        Set.of(TableFeature.FAST_PATH), tso.clientConfig(), options.postCommit(), splitKeys()));
                scenarios.add(LAZY_BEGIN);
                stores.add(new TidemarkStore(target.connection(), TableName.valueOf("bench_e2e_lazy_begin"),
                        Set.of(TableFeature.FAST_PATH), lazyBegin(tso.clientConfig()), options.postCommit(),
                        splitKeys()));
                for (int i = 0; i < stores.size(); i++) {
                    preload(scenarios.get(i), stores.get(i));
                }
                log.printf(Locale.ROOT, "e2e benchmark: %s side by side: %d threads (%s)%n",
                        String.join(", ", scenarios), options.threads(), options.run().perRun().describe());
                List<E2eResult> results = new E2eRun(stores, options).runSideBySide(scenarios, clock);
                writeResults(String.format(Locale.ROOT, "End-to-end benchmark, side by side: transactions of %d"
                        + " operation%s", options.size(), options.size() == 1 ? "" : "s"), table(results),
                        notes(results));
                return results;
            } finally {
                for (KeyValueStore store : stores) {
                    store.close();
                }
            }
        }
    }

    private E2eResult runTidemark(CommitMode mode) throws IOException, InterruptedException {
        try (BenchTarget.Tso cluster = target.tso(mode, NAMESPACE);
             KeyValueStore store = new TidemarkStore(target.connection(),
                     TableName.valueOf("bench_e2e_" + mode.configName().replace('-', '_')), Set.of(),
                     cluster.clientConfig(), options.postCommit(), splitKeys())) {
            return runScenario("tidemark " + mode.configName(), store);
        }
    }

    /** {@code config} with lazy begin: write-only transactions of one region commit there with no TSO round trip. */
    private static TidemarkConfig lazyBegin(TidemarkConfig config) {
        TidemarkConfig lazy = new TidemarkConfig(new Configuration(config.hadoopConfiguration()));
        lazy.set(TidemarkConfig.CLIENT_LAZY_BEGIN, "true");
        return lazy;
    }

        private byte[][] splitKeys() {
        return KeyValueStore.splitKeys(options.rows(), options.regions());
    }

    /**
     * Low-latency transactions through the non-blocking API, at the same thread count, with {@code inFlight}
     * transactions in flight per thread.
     */
    private E2eResult runNonBlocking(int inFlight) throws IOException, InterruptedException {
        try (BenchTarget.Tso cluster = target.tso(CommitMode.LOW_LATENCY, NAMESPACE);
             KeyValueStore store = new NonBlockingTidemarkStore(target.connection(),
                     TableName.valueOf("bench_e2e_non_blocking_" + inFlight), cluster.clientConfig(),
                     options.postCommit(), splitKeys(), inFlight)) {
            return runScenario(inFlight == 1 ? NON_BLOCKING : NON_BLOCKING + ", " + inFlight + " in flight per thread",
                    store);
        }
    }

    private E2eResult runScenario(String scenario, KeyValueStore store) throws IOException, InterruptedException {
        preload(scenario, store);
        log.printf(Locale.ROOT, "e2e benchmark: %s: %d threads (%s)%n", scenario, options.threads(),
                options.run().perRun().describe());
        return new E2eRun(store, options).run(scenario, clock);
    }

    private void preload(String scenario, KeyValueStore store) throws IOException {
        log.printf(Locale.ROOT, "e2e benchmark: %s: preloading %d rows%n", scenario, options.rows());
        store.preload(options.rows(), new byte[options.valueBytes()]);
    }

    /** The results as a table (also what the command line prints). */
    public static ResultTable table(List<E2eResult> results) {
        ResultTable table = new ResultTable("scenario", "tx_per_s", "transactions", "aborts", "errors", "p50_ms",
                "p99_ms", "mean_ms", "read_p50_ms", "write_p50_ms", "p50_over_raw", "p50_over_raw_after_begin",
                "warmup_s");
        for (E2eResult r : results) {
            table.addRow(r.scenario(), String.format(Locale.ROOT, "%.0f", r.transactionsPerSecond()),
                    r.transactions(), r.aborts(), r.errors(), LatencySummary.ms(r.all().p50Ms()),
                    LatencySummary.ms(r.all().p99Ms()), LatencySummary.ms(r.all().meanMs()),
                    LatencySummary.ms(r.reads().p50Ms()), LatencySummary.ms(r.writes().p50Ms()),
                    p50Over(r, results, RAW), p50Over(r, results, RAW_AFTER_BEGIN),
                    r.warmUp().lasted().toSeconds() + (r.warmUp().settled() ? "" : " (JIT still compiling)"));
        }
        return table;
    }

    /** {@code r}'s p50 over the p50 of the scenario named {@code baseline}; "n/a" when that measured nothing. */
    private static String p50Over(E2eResult r, List<E2eResult> results, String baseline) {
        double baselineMs = results.stream().filter(b -> b.scenario().equals(baseline)).findFirst()
                .map(b -> b.all().p50Ms()).orElse(0.0);
        return LatencySummary.ratio(r.all().p50Ms(), baselineMs);
    }

    private StringBuilder notes(List<E2eResult> results) {
        StringBuilder notes = new StringBuilder(options.sideBySide() ? "Side by side: the scenarios below ran at"
                + " once, each client thread running each transaction on every one in turn (starting with the next"
                + " one each time), so all met the same moments of load; their throughputs add up to the threads'."
                + " " : "");
        if (options.readModifyWrite()) {
            notes.append("Read-modify-writes: each write reads its key first in the same transaction (raw HBase: a"
                    + " get, then a put; the fast path: getForUpdate, then putIfUnchanged). ");
        }
        notes.append(String.format(Locale.ROOT,
                "%d client threads, closed loop; each transaction is %d operation%s, each reading or writing "
                        + "(%.0f%% writes) one key of %d rows, %s, in %d region%s; values of %d bytes; read p50 is "
                        + "that of read-only transactions, write p50 that of the others. A Tidemark transaction is "
                        + "begin, its gets and puts, commit (post-commit %s), through the TSO; the non-blocking API "
                        + "runs the same low-latency transactions as a chain of futures (AsyncTransactionManager) that "
                        + "the thread waits for, on a table whose reads the region servers resolve (the other Tidemark "
                        + "tables resolve them in the client), then with each thread keeping up to %d in flight "
                        + "(latency from begin to the end of commit); a single-region commit "
                        + "is the same transaction on a table with the fast path, whose writes commit with one request "
                        + "when they fall in one region; %s%s the raw HBase rows are the same gets and puts without a "
                        + "transaction, back to back (a transaction of writes only as one multi-put) or right after a "
                        + "BEGIN round trip that is not timed (as a transaction's operations follow its BEGIN). %s; "
                        + "%s%n%n",
                options.threads(), options.size(), options.size() == 1 ? "" : "s", 100 * options.writeFraction(),
                options.rows(), options.adjacentKeys() ? "adjacent ones from a uniform first (one region but where "
                        + "they cross a boundary)"
                        : "chosen uniformly", options.regions(),
                options.regions() == 1 ? "" : "s", options.valueBytes(), options.postCommit().configName(),
                options.nonBlockingInFlight(),
                options.size() == 1 ? "a fast-path transaction is one FastPathTable get or put, run in the region "
                        + "server with no TSO round trip;" : "the fast path (one operation) is not measured;",
                options.omid() ? " an Omid transaction is the same transaction through Apache Omid's TTable and "
                        + "its TSO in low-latency mode, in this JVM (post-commit " + options.postCommit().configName()
                        + " as well; docs/benchmarks.md);" : "",
                options.run().timing("scenario"), target.startsTsos() ? "HBase, TSO and clients share one JVM."
                        : "only the existing cluster's TSO mode (" + target.externalMode().configName()
                        + ") is measured, the fast path and raw HBase."));
        for (E2eResult r : results) {
            if (r.firstError() != null) {
                notes.append("First error in \"").append(r.scenario()).append("\": ").append(r.firstError())
                        .append("\n\n");
            }
        }
        return notes;
    }
}
