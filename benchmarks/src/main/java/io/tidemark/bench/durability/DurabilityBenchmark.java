package io.tidemark.bench.durability;

import io.tidemark.bench.BenchTarget;
import io.tidemark.bench.MeasuredBenchmark;
import io.tidemark.bench.progress.ClientThreads;
import io.tidemark.bench.progress.ProgressListener;
import io.tidemark.bench.report.Charts;
import io.tidemark.bench.report.LatencySummary;
import io.tidemark.bench.report.ReportWriter;
import io.tidemark.bench.report.ResultTable;
import io.tidemark.bench.txn.ClosedLoop;
import io.tidemark.bench.txn.DataTable;
import io.tidemark.bench.txn.Operation;
import io.tidemark.bench.txn.TxEnvironment;
import io.tidemark.bench.txn.TxMeasurement;
import io.tidemark.bench.txn.TxMode;
import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionAbortedException;
import io.tidemark.client.TransactionManager;
import org.HdrHistogram.Histogram;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.knowm.xchart.CategoryChart;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * "bench durability": the overhead of Tidemark over raw HBase under each WAL durability setting of the data table
 * (tentative cells, shadow cells and fast-path cells follow it; the commit table stays at its own setting), for
 * single-row writes (closed loop, raw put / generic transaction / fast-path put) and for batches of
 * {@code batchSize} puts per call (raw {@code Table.put(List)} against one transaction putting the list and
 * committing).
 */
public final class DurabilityBenchmark extends MeasuredBenchmark<DurabilityOptions> {

    public static final String NAME = "durability";

    private static final String NAMESPACE = "tidemark_bench_durability";
    private static final List<TxMode> MODES = List.of(TxMode.RAW, TxMode.GENERIC, TxMode.FASTPATH);
    private static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(10);

    public DurabilityBenchmark(BenchTarget target, DurabilityOptions options, PrintStream log,
                               ProgressListener progress) {
        super(target, options, log, progress, plannedSeconds(options));
    }

    public static long plannedSeconds(DurabilityOptions o) {
        int batchRuns = o.batchSize() > 0 ? 2 : 0;
        return (long) o.durabilities().size() * (MODES.size() + batchRuns)
                * o.run().secondsPerRun();
    }

    public List<DurabilityResult> run() throws IOException, InterruptedException {
        List<DurabilityResult> results = new ArrayList<>();
        for (Durability durability : options.durabilities()) {
            for (TxMode mode : MODES) {
                try (TxEnvironment env = TxEnvironment.start(mode, target, NAMESPACE, "bench_durability",
                        options.data())) {
                    setDurability(env.tableName(), durability);
                    log.printf(Locale.ROOT, "durability: %s, %s: preloading %d rows%n", durability,
                            mode.label(), options.data().keys());
                    env.driver().preload();
                    results.add(singleWrites(env, durability, mode));
                    if (options.batchSize() > 0 && mode != TxMode.FASTPATH) {
                        results.add(batches(env, durability, mode));
                    }
                }
            }
        }
        writeReport(results);
        return results;
    }

    /** Every write to the table that does not set its own durability follows this one. */
    private void setDurability(TableName table, Durability durability) throws IOException {
        try (Admin admin = target.connection().getAdmin()) {
            admin.modifyTable(TableDescriptorBuilder.newBuilder(admin.getDescriptor(table)).setDurability(durability)
                    .build());
        }
    }

    private DurabilityResult singleWrites(TxEnvironment env, Durability durability, TxMode mode)
            throws InterruptedException {
        clock.phase(durability + ", " + mode.label() + ", single writes");
        int rows = options.data().keys();
        TxMeasurement m = ClosedLoop.measure(env.driver(), options.data().valueBytes(), List.of(new ClosedLoop.Group(
                "write", options.threads(), random -> new Operation[] {Operation.update(random.nextInt(rows))})),
                clock, options.run().perRun()).get(0);
        return new DurabilityResult(durability, mode, 1, m.commits(), m.aborts(), m.errors(), m.seconds(),
                m.latency(), m.firstError());
    }

    /** One thread, back to back: raw {@code Table.put(List)}, or one transaction per list. */
    private DurabilityResult batches(TxEnvironment env, Durability durability, TxMode mode)
            throws IOException, InterruptedException {
        clock.phase(durability + ", " + mode.label() + ", batches of " + options.batchSize());
        Histogram micros = new Histogram(HIGHEST_MICROS, 3);
        AtomicLong calls = new AtomicLong();
        AtomicLong aborts = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        AtomicReference<String> firstError = new AtomicReference<>();
        TransactionManager tm = mode.isTransactional()
                ? TransactionManager.builder(target.connection()).config(env.clientConfig()).build() : null;
        try (Table raw = target.connection().getTable(env.tableName());
             TTable table = new TTable(target.connection(), env.tableName())) {
            ClientThreads writer = new ClientThreads();
            writer.add("bench-durability-batches", client -> {
                SplittableRandom random = new SplittableRandom();
                byte[] value = new byte[options.data().valueBytes()];
                while (client.running()) {
                    long started = System.nanoTime();
                    try {
                        boolean committed = putBatch(raw, table, tm, random, value);
                        if (client.measuring()) {
                            if (committed) {
                                micros.recordValue(Math.min((System.nanoTime() - started) / 1000, HIGHEST_MICROS));
                                calls.incrementAndGet();
                            } else {
                                aborts.incrementAndGet();
                            }
                        }
                        if (committed) {
                            client.completed();
                        }
                    } catch (IOException | RuntimeException e) {
                        errors.incrementAndGet();
                        firstError.compareAndSet(null, e.toString());
                    }
                }
            });
            double seconds = writer.measure(clock, options.run().perRun(), firstError::get);
            return new DurabilityResult(durability, mode, options.batchSize(), calls.get(), aborts.get(),
                    errors.get(), seconds, LatencySummary.of(micros), firstError.get());
        } finally {
            if (tm != null) {
                tm.close();
            }
        }
    }

    /** One call of {@code batchSize} puts: raw when {@code tm} is null, else one transaction; false if it aborted. */
    private boolean putBatch(Table raw, TTable table, TransactionManager tm, SplittableRandom random, byte[] value)
            throws IOException {
        List<Put> puts = new ArrayList<>(options.batchSize());
        for (int i = 0; i < options.batchSize(); i++) {
            random.nextBytes(value);
            puts.add(new Put(DataTable.row(random.nextInt(options.data().keys())))
                    .addColumn(DataTable.FAMILY, DataTable.QUALIFIER, value.clone()));
        }
        if (tm == null) {
            raw.put(puts);
            return true;
        }
        Transaction tx = tm.begin();
        table.put(tx, puts);
        try {
            tm.commit(tx);
            return true;
        } catch (TransactionAbortedException e) {
            return false;
        }
    }

    /** The results as a table (also what the command line prints), with each run's p50 over raw HBase's. */
    public static ResultTable table(List<DurabilityResult> results) {
        ResultTable table = new ResultTable("durability", "mode", "mutations_per_call", "calls_per_s", "calls",
                "aborts", "errors", "p50_ms", "p99_ms", "mean_ms", "p50_vs_raw");
        for (DurabilityResult r : results) {
            table.addRow(r.durability(), r.mode().label(), r.mutationsPerCall(),
                    String.format(Locale.ROOT, "%.1f", r.callsPerSecond()), r.calls(), r.aborts(), r.errors(),
                    LatencySummary.ms(r.latency().p50Ms()), LatencySummary.ms(r.latency().p99Ms()),
                    LatencySummary.ms(r.latency().meanMs()), ratio(results, r));
        }
        return table;
    }

    private static String ratio(List<DurabilityResult> results, DurabilityResult r) {
        return results.stream().filter(b -> b.mode() == TxMode.RAW && b.durability() == r.durability()
                        && b.mutationsPerCall() == r.mutationsPerCall() && b.latency().p50Ms() > 0)
                .findFirst().map(b -> String.format(Locale.ROOT, "%.2f", r.latency().p50Ms() / b.latency().p50Ms()))
                .orElse("");
    }

    private void writeReport(List<DurabilityResult> results) throws IOException {
        StringBuilder notes = new StringBuilder(String.format(Locale.ROOT,
                "The data table's DURABILITY is set to each value in turn; raw HBase puts, Tidemark's tentative "
                        + "and shadow cells and the fast path's cells follow it, while the commit table keeps its own "
                        + "(HBase's default, SYNC_WAL). Single writes: %d thread(s), closed loop, one row per call "
                        + "(raw put; generic = BEGIN, tentative put, COMMIT, commit record, post-commit; fast path = "
                        + "one fast-path put). Batches: one thread, %d puts per call (raw Table.put(List); generic = "
                        + "one transaction putting the list, then committing). Uniform keys over %d preloaded rows, "
                        + "%d-byte values. p50_vs_raw = the run's p50 over raw HBase's at the same durability and "
                        + "call size. %s. What each setting risks: docs/api.md, "
                        + "\"Durability settings\".%n%n",
                options.threads(), options.batchSize(), options.data().keys(), options.data().valueBytes(),
                options.run().timing("run")));
        String file = Charts.save(chart(results, 1), options.run().outputFolder(), "durability-single.png");
        notes.append(ReportWriter.image("single writes by durability", file));
        if (options.batchSize() > 0) {
            String batchFile = Charts.save(chart(results, options.batchSize()), options.run().outputFolder(),
                    "durability-batch.png");
            notes.append(ReportWriter.image("batches by durability", batchFile));
        }
        for (DurabilityResult r : results) {
            if (r.firstError() != null) {
                notes.append(String.format(Locale.ROOT, "First error in %s, %s: %s%n%n", r.durability(),
                        r.mode().label(), r.firstError()));
            }
        }
        writeResults("Overhead over raw HBase by WAL durability", table(results), notes);
    }

    private CategoryChart chart(List<DurabilityResult> results, int mutationsPerCall) {
        CategoryChart chart = Charts.bars((mutationsPerCall == 1 ? "Single writes" : "Batches of "
                + mutationsPerCall) + ": p50 by durability", "data table durability", "p50 latency (ms)", false);
        List<String> names = options.durabilities().stream().map(Durability::name).toList();
        for (TxMode mode : MODES) {
            List<Number> p50 = new ArrayList<>();
            boolean any = false;
            for (Durability d : options.durabilities()) {
                double value = results.stream().filter(r -> r.mode() == mode && r.durability() == d
                        && r.mutationsPerCall() == mutationsPerCall).findFirst()
                        .map(r -> r.latency().p50Ms()).orElse(0.0);
                any |= value > 0;
                p50.add(value);
            }
            if (any) {
                chart.addSeries(mode.label(), names, p50);
            }
        }
        return chart;
    }
}
