package io.tidemark.bench.tpcc;

import io.tidemark.bench.BenchTarget;
import io.tidemark.bench.MeasuredBenchmark;
import io.tidemark.bench.ScratchTables;
import io.tidemark.bench.progress.ClientThreads;
import io.tidemark.bench.progress.ProgressListener;
import io.tidemark.bench.report.Charts;
import io.tidemark.bench.report.LatencySummary;
import io.tidemark.bench.report.ReportWriter;
import io.tidemark.bench.report.ResultTable;
import io.tidemark.bench.txn.TxMode;
import io.tidemark.client.TransactionAbortedException;
import io.tidemark.client.TransactionManager;
import org.HdrHistogram.Histogram;
import org.knowm.xchart.XYChart;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

/**
 * "bench tpcc": for each mode, starts a TSO of its commit mode, recreates and loads the TPC-C tables through Tidemark
 * transactions, runs New-Order (and Payment) terminals at each thread count, then checks consistency conditions 1 to
 * 4 and drops the tables. Reports committed New-Orders per minute (tpmC-style, not an official TPC-C result),
 * latency and aborts by reason.
 */
public final class TpccBenchmark extends MeasuredBenchmark<TpccOptions> {

    public static final String NAME = "tpcc";
    static final String THROUGHPUT_PLOT = "tpcc-new-orders-per-minute.png";
    static final String LATENCY_PLOT = "tpcc-new-order-latency.png";

    private static final String NAMESPACE = "tidemark_bench_tpcc";

    public TpccBenchmark(BenchTarget target, TpccOptions options, PrintStream log, ProgressListener progress) {
        super(target, options, log, progress, plannedSeconds(options));
    }

    public static long plannedSeconds(TpccOptions o) {
        return (long) o.modes().size() * o.threads().size() * o.run().secondsPerRun();
    }

    public TpccRun run() throws IOException, InterruptedException {
        List<TpccResult> results = new ArrayList<>();
        Map<TxMode, List<String>> violations = new EnumMap<>(TxMode.class);
        TpccScale scale = options.cardinalities();
        TpccRandom.Constants constants = TpccRandom.Constants.draw(new SplittableRandom());
        for (TxMode mode : options.modes()) {
            try (BenchTarget.Tso tso = target.tso(mode.commitMode(), NAMESPACE);
                 TransactionManager tm = TransactionManager.builder(target.connection())
                         .config(tso.clientConfig()).build()) {
                try {
                    ScratchTables.recreateAll(target.connection(), TpccSchema.Table.hbaseNames(),
                            TpccSchema.FAMILY_NAME, tso.clientConfig());
                    clock.phase(mode + ": loading");
                    log.printf(Locale.ROOT, "tpcc %s: loading %d warehouse(s), %d items, %d customers per district%n",
                            mode, scale.warehouses(), scale.items(), scale.customersPerDistrict());
                    TpccLoader.load(target.connection(), tm, scale,
                            new TpccRandom(new SplittableRandom(), constants));
                    for (int threads : options.threads()) {
                        results.add(measure(tm, mode, scale, constants, threads));
                    }
                    clock.phase(mode + ": consistency check");
                    List<String> found = TpccAudit.check(target.connection(), tm);
                    violations.put(mode, found);
                    found.forEach(v -> log.println("tpcc " + mode + ": consistency violated: " + v));
                } finally {
                    ScratchTables.dropAll(target.connection(), TpccSchema.Table.hbaseNames());
                }
            }
        }
        TpccRun run = new TpccRun(results, violations);
        writeReport(run);
        return run;
    }

    /**
     * One run: {@code threads} terminals (spread over the warehouses) run transactions back to back through one
     * shared TransactionManager; only the transactions that end during the measured seconds count.
     */
    private TpccResult measure(TransactionManager tm, TxMode mode, TpccScale scale, TpccRandom.Constants constants,
                               int threads) throws IOException, InterruptedException {
        clock.phase(mode + ", " + threads + " thread(s)");
        ClientThreads clients = new ClientThreads();
        List<TpccStats> perThread = new ArrayList<>();
        List<TpccTerminal> opened = new ArrayList<>();
        try {
            for (int i = 0; i < threads; i++) {
                TpccStats stats = new TpccStats();
                perThread.add(stats);
                TpccTerminal terminal = new TpccTerminal(target.connection(), tm, scale,
                        new TpccRandom(new SplittableRandom(), constants), i % scale.warehouses() + 1);
                opened.add(terminal);
                clients.add("bench-tpcc-terminal-" + i, client -> runTerminal(terminal, stats, client));
            }
            double seconds = clients.measure(clock, options.run().perRun(), () -> perThread.stream()
                    .map(TpccStats::firstError).filter(e -> e != null).findFirst().orElse(null));
            TpccStats total = new TpccStats();
            perThread.forEach(total::add);
            TpccResult result = new TpccResult(mode, threads, seconds, total);
            log.printf(Locale.ROOT, "tpcc %s, %d thread(s): %.0f New-Orders/min, abort rate %.1f%%%n", mode, threads,
                    result.newOrdersPerMinute(), 100 * result.abortRate());
            return result;
        } finally {
            for (TpccTerminal terminal : opened) {
                terminal.close();
            }
        }
    }

    /** A terminal's unit of work is a transaction that committed, or that the user rolled back as TPC-C asks. */
    private void runTerminal(TpccTerminal terminal, TpccStats stats, ClientThreads.Client client) {
        while (client.running()) {
            TpccTerminal.Kind kind = terminal.next(options.mix());
            long started = System.nanoTime();
            try {
                TpccTerminal.Outcome outcome = terminal.run(kind);
                if (client.measuring()) {
                    if (outcome == TpccTerminal.Outcome.USER_ROLLBACK) {
                        stats.userRollback();
                    } else {
                        stats.committed(kind, (System.nanoTime() - started) / 1000);
                    }
                }
                client.completed();
            } catch (TransactionAbortedException e) {
                if (client.measuring()) {
                    stats.aborted(e.reason());
                }
            } catch (IOException | RuntimeException e) {
                if (client.measuring()) {
                    stats.error(e);
                }
            }
        }
    }

    /** The results as a table (also what the command line prints). */
    public static ResultTable table(List<TpccResult> results) {
        ResultTable table = new ResultTable("mode", "threads", "new_orders_per_min", "new_orders", "payments",
                "new_order_p50_ms", "new_order_p99_ms", "payment_p50_ms", "payment_p99_ms", "user_rollbacks",
                "aborts", "abort_rate", "aborts_by_reason", "errors");
        for (TpccResult r : results) {
            TpccStats s = r.stats();
            table.addRow(r.mode().label(), r.threads(), String.format(Locale.ROOT, "%.0f", r.newOrdersPerMinute()),
                    s.newOrders(), s.payments(), ms(s.newOrderMicros(), 50), ms(s.newOrderMicros(), 99),
                    ms(s.paymentMicros(), 50), ms(s.paymentMicros(), 99), s.userRollbacks(), s.abortCount(),
                    String.format(Locale.ROOT, "%.3f", r.abortRate()), byReason(s.aborts()), s.errors());
        }
        return table;
    }

    /** E.g. {@code CONFLICT=12 INVALIDATED=1}, or {@code none}. */
    static String byReason(Map<TransactionAbortedException.Reason, Long> aborts) {
        if (aborts.isEmpty()) {
            return "none";
        }
        return aborts.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" "));
    }

    private static String ms(Histogram micros, double percentile) {
        return micros.getTotalCount() == 0 ? "-" : LatencySummary.ms(micros.getValueAtPercentile(percentile) / 1000.0);
    }

    private void writeReport(TpccRun run) throws IOException {
        TpccScale scale = options.cardinalities();
        StringBuilder notes = new StringBuilder(String.format(Locale.ROOT,
                "**Not an official TPC-C result**: no think or keying times, no Delivery, Order-Status or Stock-Level, "
                        + "Payment by customer id only, scaled cardinalities (docs/tpcc.md). new_orders_per_min counts "
                        + "committed New-Orders per minute of measurement (tpmC-style). Mix %s; %d warehouse(s) at "
                        + "scale %.3f: %d items, %d customers and initial orders per district. Terminal threads "
                        + "share one TransactionManager and run transactions back to back without retrying; latency "
                        + "is BEGIN to the return of COMMIT of committed transactions. user_rollbacks are the 1%% of "
                        + "New-Orders rolled back on an unused item (not aborts); aborts are Tidemark's, by reason. "
                        + "D_NEXT_O_ID is written last in New-Order. %s; HBase, TSO "
                        + "and clients share one JVM.%n%n",
                options.mix(), scale.warehouses(), options.scale(), scale.items(), scale.customersPerDistrict(),
                options.run().timing("run")));
        run.violations().forEach((mode, found) -> notes.append(found.isEmpty()
                ? "Consistency conditions 1-4 hold after the " + mode + " runs.\n\n"
                : "**Consistency violated** after the " + mode + " runs:\n\n" + found.stream()
                        .map(v -> "- " + v + "\n").collect(Collectors.joining()) + "\n"));
        notes.append(ReportWriter.image("committed New-Orders per minute", Charts.save(chart(run.results(), true),
                options.run().outputFolder(), THROUGHPUT_PLOT)));
        notes.append(ReportWriter.image("New-Order latency", Charts.save(chart(run.results(), false),
                options.run().outputFolder(), LATENCY_PLOT)));
        for (TpccResult r : run.results()) {
            if (r.stats().firstError() != null) {
                notes.append(String.format(Locale.ROOT, "First error, %s, %d thread(s): %s%n%n", r.mode(),
                        r.threads(), r.stats().firstError()));
            }
        }
        writeResults("TPC-C New-Order and Payment (not an official TPC-C result)", table(run.results()), notes);
    }

    /** New-Orders per minute ({@code throughput}) or New-Order p50 and p99 latency, against threads, per mode. */
    private XYChart chart(List<TpccResult> results, boolean throughput) {
        XYChart chart = Charts.lines(throughput ? "TPC-C: committed New-Orders per minute"
                        : "TPC-C: New-Order latency (committed)", "terminal threads",
                throughput ? "New-Orders per minute" : "latency (ms)");
        for (TxMode mode : options.modes()) {
            List<TpccResult> ofMode = results.stream().filter(r -> r.mode() == mode).toList();
            if (ofMode.isEmpty()) {
                continue;
            }
            List<Integer> threads = ofMode.stream().map(TpccResult::threads).toList();
            if (throughput) {
                chart.addSeries(mode.label(), threads, ofMode.stream().map(TpccResult::newOrdersPerMinute).toList());
            } else {
                for (int percentile : new int[] {50, 99}) {
                    chart.addSeries(mode.label() + " p" + percentile, threads, ofMode.stream()
                            .map(r -> r.stats().newOrderMicros().getValueAtPercentile(percentile) / 1000.0)
                            .toList());
                }
            }
        }
        return chart;
    }
}
