package io.tidemark.bench.fanout;

import io.tidemark.bench.BenchTarget;
import io.tidemark.bench.MeasuredBenchmark;
import io.tidemark.bench.ScratchTables;
import io.tidemark.bench.progress.ClientThreads;
import io.tidemark.bench.progress.ProgressListener;
import io.tidemark.bench.progress.RunTiming;
import io.tidemark.bench.report.Charts;
import io.tidemark.bench.report.LatencySummary;
import io.tidemark.bench.report.ReportWriter;
import io.tidemark.bench.report.ResultTable;
import io.tidemark.bench.txn.DataTable;
import io.tidemark.client.AsyncTTable;
import io.tidemark.client.AsyncTransactionManager;
import io.tidemark.client.AsyncTransactionalTable;
import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionManager;
import io.tidemark.client.TransactionState;
import io.tidemark.protocol.CommitMode;
import io.tidemark.table.TableFeature;
import org.HdrHistogram.Histogram;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.knowm.xchart.XYChart;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.function.BiFunction;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * "bench fanout": one client thread runs transactions of n operations, alternately a write and a read of distinct
 * uniformly chosen rows of a table split over several regions, issuing them with at most f in flight (f = 1: one
 * after another), then commits; one series per API ({@link FanoutApi}): an {@link AsyncTTable} on an executor, and
 * the non-blocking {@link AsyncTransactionalTable}. Reports p50 and p99 per (API, n, f), normalised to sequential
 * issue of the same n and to a 1-operation transaction, with plots.
 */
public final class FanoutBenchmark extends MeasuredBenchmark<FanoutOptions> {

    public static final String NAME = "fanout";
    /** The issue-14 target: a 10-operation transaction at full fan-out at most this many times a 1-operation one. */
    static final double TARGET_RATIO = 2.5;
    static final int TARGET_OPERATIONS = 10;

    private static final String NAMESPACE = "tidemark_bench_fanout";
    private static final TableName TABLE = TableName.valueOf("bench_fanout");
    private static final int PRELOAD_ROWS_PER_TRANSACTION = 500;
    /** Slices each (n, f) is measured in, one per round through all of them. */
    static final int ROUNDS = 3;
    private static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(10);

    public FanoutBenchmark(BenchTarget target, FanoutOptions options, PrintStream log, ProgressListener progress) {
        super(target, options, log, progress, plannedSeconds(options));
    }

    public static long plannedSeconds(FanoutOptions o) {
        long runs = o.operations().stream().mapToLong(n -> o.fanoutsFor(n).size()).sum() * o.apis().size();
        return 2 * o.apis().size() * warmUpRun(o).plannedSeconds() + runs * o.run().duration().toSeconds();
    }

    public List<FanoutResult> run() throws IOException, InterruptedException {
        List<FanoutResult> results = new ArrayList<>();
        AtomicInteger threads = new AtomicInteger();
        ExecutorService executor = Executors.newFixedThreadPool(options.mostInFlight(), r -> {
            Thread t = new Thread(r, "bench-fanout-" + threads.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        try (BenchTarget.Tso tso = target.tso(CommitMode.LOW_LATENCY, NAMESPACE);
             AsyncConnection async = asyncConnection();
             TransactionManager tm = TransactionManager.builder(target.connection()).config(tso.clientConfig())
                     .build()) {
            ScratchTables.recreate(target.connection(), TABLE, Bytes.toString(DataTable.FAMILY), TableFeature.DEFAULT,
                    tso.clientConfig(), splitKeys());
            try (AsyncTTable table = tm.asyncTable(async, TABLE, executor)) {
                AsyncTransactionManager atm = AsyncTransactionManager.over(tm, async);
                AsyncTransactionalTable nonBlocking = atm.table(TABLE).get();
                Map<FanoutApi, Issuer> issuers = new EnumMap<>(FanoutApi.class);
                for (FanoutApi api : options.apis()) {
                    issuers.put(api, api == FanoutApi.EXECUTOR ? executorIssuer(tm, table)
                            : nonBlockingIssuer(atm, nonBlocking));
                }
                log.printf(Locale.ROOT, "fanout: preloading %d rows over %d regions%n", options.keys(),
                        options.regions());
                preload(tm);
                for (Map.Entry<FanoutApi, Issuer> api : issuers.entrySet()) {
                    warmUp(api.getKey(), api.getValue());
                }
                results = measureInRounds(issuers);
            } catch (ExecutionException e) {
                throw new IOException("could not open the non-blocking table", e.getCause());
            } finally {
                ScratchTables.drop(target.connection(), TABLE);
            }
        } finally {
            executor.shutdownNow();
        }
        writeReport(results);
        return results;
    }

    private AsyncConnection asyncConnection() throws IOException, InterruptedException {
        try {
            return ConnectionFactory.createAsyncConnection(target.connection().getConfiguration()).get();
        } catch (ExecutionException e) {
            throw new IOException("could not open an asynchronous HBase connection", e.getCause());
        }
    }

    /** Split points that spread the keys evenly over the regions. */
    private byte[][] splitKeys() {
        return ScratchTables.evenSplits(options.keys(), options.regions(), DataTable::row);
    }

    private void preload(TransactionManager tm) throws IOException {
        byte[] value = new byte[options.valueBytes()];
        try (TTable table = new TTable(target.connection(), TABLE)) {
            for (int from = 0; from < options.keys(); from += PRELOAD_ROWS_PER_TRANSACTION) {
                Transaction tx = tm.begin();
                List<Put> puts = new ArrayList<>();
                for (int key = from; key < Math.min(options.keys(), from + PRELOAD_ROWS_PER_TRANSACTION); key++) {
                    puts.add(new Put(DataTable.row(key)).addColumn(DataTable.FAMILY, DataTable.QUALIFIER, value));
                }
                table.put(tx, puts);
                tm.commit(tx);
            }
        }
    }

    /**
     * Runs the largest transactions at full fan-out, then 1-operation transactions, each for the warm-up time and
     * unmeasured: otherwise the first run measured (the 1-operation baseline every ratio divides by) would pay for
     * the JIT, the new connection's region lookups and the flushes after the preload.
     */
    private void warmUp(FanoutApi api, Issuer issuer) throws InterruptedException {
        int largest = options.operations().stream().mapToInt(Integer::intValue).max().orElseThrow();
        run(api, issuer, largest, options.mostInFlight(), "warm-up", warmUpRun(options));
        run(api, issuer, 1, 1, "warm-up", warmUpRun(options));
    }

    /** An unmeasured run of the options' warm-up. */
    private static RunTiming warmUpRun(FanoutOptions o) {
        return RunTiming.warmUpOnly(o.run().warmup());
    }

    /** One API's begin, operations and commit, as the client thread calls them. */
    private record Issuer(Begin begin, BiFunction<Transaction, Put, CompletableFuture<?>> put,
                          BiFunction<Transaction, Get, CompletableFuture<?>> get, End commit, End rollback) {
    }

    @FunctionalInterface
    private interface Begin {
        Transaction begin() throws Exception;
    }

    @FunctionalInterface
    private interface End {
        void end(Transaction tx) throws Exception;
    }

    private static Issuer executorIssuer(TransactionManager tm, AsyncTTable table) {
        return new Issuer(tm::begin, table::put, table::get, tm::commit, tm::rollback);
    }

    /** The thread waits for begin and commit, as it does with the executor's API. */
    private static Issuer nonBlockingIssuer(AsyncTransactionManager atm, AsyncTransactionalTable table) {
        return new Issuer(() -> atm.begin().get(), table::put, table::get, tx -> atm.commit(tx).get(),
                tx -> atm.rollback(tx).get());
    }

    /**
     * Measures every (n, f) in {@value #ROUNDS} rounds of a slice each, and merges the slices: on a shared machine the
     * background load drifts, and ratios between runs measured minutes apart would mostly show the drift.
     */
    private List<FanoutResult> measureInRounds(Map<FanoutApi, Issuer> issuers) throws InterruptedException {
        RunTiming slice = RunTiming.measureOnly(options.run().duration().dividedBy(ROUNDS));
        List<FanoutResult> merged = new ArrayList<>();
        for (int round = 1; round <= ROUNDS; round++) {
            int i = 0;
            for (Map.Entry<FanoutApi, Issuer> api : issuers.entrySet()) {
                for (int n : options.operations()) {
                    for (int f : options.fanoutsFor(n)) {
                        FanoutResult r = run(api.getKey(), api.getValue(), n, f, "round " + round + "/" + ROUNDS,
                                slice);
                        if (round == 1) {
                            merged.add(r);
                        } else {
                            merged.set(i, merged.get(i).plus(r));
                        }
                        i++;
                    }
                }
            }
        }
        return merged;
    }

    /** Transactions of {@code operations} at {@code fanout}, warmed up and measured as {@code timing} says. */
    private FanoutResult run(FanoutApi api, Issuer issuer, int operations, int fanout, String phase,
                             RunTiming timing) throws InterruptedException {
        clock.phase(phase + ": " + api.label() + ", " + operations + " operation(s), fan-out " + fanout);
        Histogram latency = new Histogram(HIGHEST_MICROS, 3);
        AtomicLong transactions = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        AtomicReference<Throwable> firstError = new AtomicReference<>();
        ClientThreads clients = new ClientThreads();
        clients.add("bench-fanout-client", client -> {
            SplittableRandom random = new SplittableRandom();
            byte[] value = new byte[options.valueBytes()];
            while (client.running()) {
                long started = System.nanoTime();
                Transaction tx = null;
                try {
                    tx = issuer.begin().begin();
                    issue(issuer, tx, distinctKeys(random, operations), fanout, value);
                    issuer.commit().end(tx);
                    if (client.measuring()) {
                        latency.recordValue(Math.min((System.nanoTime() - started) / 1000, HIGHEST_MICROS));
                        transactions.incrementAndGet();
                    }
                    client.completed();
                } catch (Exception e) {
                    if (e instanceof InterruptedException) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    errors.incrementAndGet();
                    firstError.compareAndSet(null, e);
                    if (tx != null && tx.state() == TransactionState.RUNNING) {
                        try {
                            issuer.rollback().end(tx);
                        } catch (Exception ignored) {
                            // The error above is what the report shows.
                        }
                    }
                }
            }
        });
        clients.measure(clock, timing, firstError::get);
        return new FanoutResult(api, operations, fanout, transactions.get(), errors.get(), latency, firstError.get());
    }

    /** Issues the operations with at most {@code fanout} in flight, waiting for the oldest when the window is full. */
    private static void issue(Issuer issuer, Transaction tx, int[] keys, int fanout, byte[] value)
            throws InterruptedException, ExecutionException {
        ArrayDeque<CompletableFuture<?>> window = new ArrayDeque<>(fanout);
        for (int i = 0; i < keys.length; i++) {
            if (window.size() == fanout) {
                window.poll().get();
            }
            byte[] row = DataTable.row(keys[i]);
            window.add(i % 2 == 0
                    ? issuer.put().apply(tx, new Put(row).addColumn(DataTable.FAMILY, DataTable.QUALIFIER, value))
                    : issuer.get().apply(tx, new Get(row).addColumn(DataTable.FAMILY, DataTable.QUALIFIER)));
        }
        while (!window.isEmpty()) {
            window.poll().get();
        }
    }

    private int[] distinctKeys(SplittableRandom random, int count) {
        Set<Integer> chosen = new HashSet<>();
        int[] keys = new int[count];
        int i = 0;
        while (i < count) {
            int key = random.nextInt(options.keys());
            if (chosen.add(key)) {
                keys[i++] = key;
            }
        }
        return keys;
    }

    /** The results as a table (also what the command line prints). */
    public static ResultTable table(List<FanoutResult> results) {
        ResultTable table = new ResultTable("api", "operations", "fanout", "transactions", "errors", "p50_ms", "p99_ms",
                "p50_vs_sequential", "p99_vs_sequential", "p50_vs_1_op");
        for (FanoutResult r : results) {
            FanoutResult oneOp = find(results, r.api(), 1, 1);
            FanoutResult sequential = find(results, r.api(), r.operations(), 1);
            table.addRow(r.api().label(), r.operations(), r.fanout(), r.transactions(), r.errors(), LatencySummary.ms(r.p50Ms()),
                    LatencySummary.ms(r.p99Ms()), ratio(r.p50Ms(), sequential == null ? 0 : sequential.p50Ms()),
                    ratio(r.p99Ms(), sequential == null ? 0 : sequential.p99Ms()),
                    ratio(r.p50Ms(), oneOp == null ? 0 : oneOp.p50Ms()));
        }
        return table;
    }

    /**
     * The issue-14 target line: p50 of {@value #TARGET_OPERATIONS}-operation transactions at their largest fan-out
     * against 1-operation transactions; null when either was not measured.
     */
    public static String targetLine(List<FanoutResult> results) {
        if (results.isEmpty()) {
            return null;
        }
        FanoutApi api = results.get(0).api();
        FanoutResult oneOp = find(results, api, 1, 1);
        FanoutResult full = results.stream().filter(r -> r.api() == api && r.operations() == TARGET_OPERATIONS)
                .max((a, b) -> Integer.compare(a.fanout(), b.fanout())).orElse(null);
        FanoutResult sequential = find(results, api, TARGET_OPERATIONS, 1);
        if (oneOp == null || full == null || oneOp.transactions() == 0 || full.transactions() == 0) {
            return null;
        }
        return String.format(Locale.ROOT, "Target (" + api.label() + " API): a %d-operation transaction at fan-out %d takes %.2fx a 1-operation"
                        + " transaction at p50 (%s ms vs %s ms; target <= %.1fx)%s.", TARGET_OPERATIONS,
                full.fanout(), full.p50Ms() / oneOp.p50Ms(), LatencySummary.ms(full.p50Ms()),
                LatencySummary.ms(oneOp.p50Ms()), TARGET_RATIO, sequential == null ? ""
                        : String.format(Locale.ROOT, "; issued sequentially it takes %.2fx",
                        sequential.p50Ms() / oneOp.p50Ms()));
    }

    private static FanoutResult find(List<FanoutResult> results, FanoutApi api, int operations, int fanout) {
        return results.stream().filter(r -> r.api() == api && r.operations() == operations && r.fanout() == fanout
                && r.transactions() > 0).findFirst().orElse(null);
    }

    private static String ratio(double value, double base) {
        return base > 0 ? String.format(Locale.ROOT, "%.2f", value / base) : "-";
    }

    private void writeReport(List<FanoutResult> results) throws IOException {
        StringBuilder notes = new StringBuilder(String.format(Locale.ROOT,
                "One client thread runs transactions of n operations: operation i writes (even i) or reads (odd i)"
                        + " one of %d preloaded rows of %d bytes, chosen uniformly and distinct within the"
                        + " transaction, in a table split into %d regions, with the default features of a transactional table (reads resolved by the region servers). The operations go through an AsyncTTable"
                        + " with at most f in flight (fan-out f; 1 = one after another, through the same API), on an"
                        + " executor of %d threads (API executor), or through the non-blocking"
                        + " AsyncTransactionalTable, whose begin and commit the thread waits for too (API"
                        + " non-blocking); then the transaction commits (low-latency mode, writing its own"
                        + " commit record). Before the first run, the largest transactions at full fan-out and"
                        + " 1-operation transactions run unmeasured for the warm-up time each; then every (n, f) is"
                        + " measured in " + ROUNDS + " rounds through all of them, one equal slice of its measured time"
                        + " per round, and the slices merged, so that the drift of the background load hits all of"
                        + " them alike. Latency is begin to end of"
                        + " commit. *_vs_sequential divides by the same n"
                        + " at fan-out 1; p50_vs_1_op divides by the 1-operation transaction. %s;"
                        + " HBase, TSO and client share one JVM.%n%n",
                options.keys(), options.valueBytes(), options.regions(), options.mostInFlight(),
                options.run().timing("(n, f)")));
        String targetReached = targetLine(results);
        if (targetReached != null) {
            notes.append(targetReached).append("\n\n");
        }
        notes.append(ReportWriter.image("p50 normalised to sequential issue",
                Charts.save(normalised(results, true), options.run().outputFolder(), "fanout-p50.png")));
        notes.append(ReportWriter.image("p99 normalised to sequential issue",
                Charts.save(normalised(results, false), options.run().outputFolder(), "fanout-p99.png")));
        for (FanoutResult r : results) {
            if (r.firstError() != null) {
                notes.append(String.format(Locale.ROOT, "First error, %s, %d operation(s), fan-out %d: %s%n%n",
                        r.api().label(), r.operations(), r.fanout(), r.firstError()));
            }
        }
        writeResults("Multi-dispatch: fanning out a transaction's operations", table(results), notes);
    }

    /** Latency at each fan-out divided by sequential issue, one line per transaction size. */
    private static XYChart normalised(List<FanoutResult> results, boolean p50) {
        XYChart chart = Charts.lines("Transaction latency (" + (p50 ? "p50" : "p99") + ") against fan-out",
                "fan-out (operations in flight)", "latency / sequential latency");
        for (FanoutApi api : results.stream().map(FanoutResult::api).distinct().toList()) {
            for (int n : results.stream().map(FanoutResult::operations).distinct().toList()) {
                FanoutResult sequential = find(results, api, n, 1);
                List<Double> x = new ArrayList<>();
                List<Double> y = new ArrayList<>();
                for (FanoutResult r : results) {
                    if (r.api() == api && r.operations() == n && r.transactions() > 0 && sequential != null) {
                        x.add((double) r.fanout());
                        y.add(p50 ? r.p50Ms() / sequential.p50Ms() : r.p99Ms() / sequential.p99Ms());
                    }
                }
                if (!x.isEmpty()) {
                    chart.addSeries(api.label() + ", " + n + " operation(s)", x, y);
                }
            }
        }
        return chart;
    }
}
