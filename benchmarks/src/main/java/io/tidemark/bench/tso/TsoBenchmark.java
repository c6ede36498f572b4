package io.tidemark.bench.tso;

import io.tidemark.bench.BenchTarget;
import io.tidemark.bench.MeasuredBenchmark;
import io.tidemark.bench.progress.ProgressListener;
import io.tidemark.bench.report.Charts;
import io.tidemark.bench.report.LatencySummary;
import io.tidemark.bench.report.ReportWriter;
import io.tidemark.bench.report.ResultTable;
import io.tidemark.client.tso.NettyTsoClient;
import io.tidemark.client.tso.TsoClient;
import io.tidemark.protocol.CommitMode;
import org.knowm.xchart.XYChart;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * "bench tso": throughput and latency of BEGIN + COMMIT pairs against the TSO, in four scenarios and a client sweep:
 * <ol>
 *   <li>low-latency TSO alone: the client skips its commit record, so no HBase is on the path;</li>
 *   <li>low-latency with each client writing its commit record to the commit table (group commit, as
 *       TransactionManager does);</li>
 *   <li>batched: the TSO writes the commit records itself before replying;</li>
 *   <li>low-latency TSO alone at a fixed rate, by default half the saturation rate of scenario 1, for the latency
 *       of a TSO that is not saturated;</li>
 *   <li>with the omid option, Apache Omid's TSO in low-latency mode alone and with its clients' commit records
 *       ({@link OmidTsoScenarios});</li>
 *   <li>the client sweep: the low-latency TSO alone, saturated by 1, 2, 4... clients (each keeping its window of pairs
 *       outstanding), for throughput and latency as a function of the number of clients.</li>
 * </ol>
 */
public final class TsoBenchmark extends MeasuredBenchmark<TsoBenchmarkOptions> {

    /** Name of the benchmark, used for the default output folder. */
    public static final String NAME = "tso";

    private static final String NAMESPACE = "tidemark_bench_tso";
    /** Scenario name of the client sweep's runs. */
    public static final String SWEEP = "client sweep";
    private static final int FIXED_SCENARIOS = 4;
    /** Why this benchmark cannot run on an existing cluster. */
    public static final String NEEDS_EMBEDDED_HBASE = "bench tso starts TSOs of both commit modes itself, which only "
            + "an embedded HBase allows: use --storage local|hdfs instead of --hbase-site";

    /**
     * {@code log} receives a line as each scenario starts.
     *
     * @throws IllegalArgumentException when {@code target} is an existing cluster: this benchmark starts TSOs of both
     *                                  commit modes
     */
    public TsoBenchmark(BenchTarget target, TsoBenchmarkOptions options, PrintStream log,
                        ProgressListener progress) {
        super(target, options, log, progress, plannedSeconds(options));
        if (!target.startsTsos()) {
            throw new IllegalArgumentException(NEEDS_EMBEDDED_HBASE);
        }
    }

    public static long plannedSeconds(TsoBenchmarkOptions o) {
        int omidScenarios = o.omid() ? OmidTsoScenarios.COUNT : 0;
        return (long) (FIXED_SCENARIOS + omidScenarios + o.sweepClients().size()) * o.run().secondsPerRun();
    }

    /** Runs all scenarios, then the sweep, writes the report and returns the results in that order. */
    public List<TsoRunResult> run() throws IOException, InterruptedException {
        List<TsoRunResult> results = new ArrayList<>();
        List<TsoRunResult> sweep = new ArrayList<>();
        try (BenchTarget.Tso cluster = target.tso(CommitMode.LOW_LATENCY, NAMESPACE)) {
            TsoRunResult alone = runScenario(cluster, "low-latency TSO only", CommitRecordSink.NONE, 0);
            results.add(alone);
            try (ClientCommitRecords records = new ClientCommitRecords(target.connection(), cluster.clientConfig())) {
                results.add(runScenario(cluster, "low-latency + commit record", records, 0));
            }
            long rate = options.targetRate() > 0 ? options.targetRate()
                    : Math.max(1, Math.round(alone.pairsPerSecond() / 2));
            String name = options.targetRate() > 0 ? "low-latency TSO only, fixed rate"
                    : "low-latency TSO only, half rate";
            results.add(runScenario(cluster, name, CommitRecordSink.NONE, rate));
            for (int clients : options.sweepClients()) {
                sweep.add(runScenario(cluster, SWEEP, CommitRecordSink.NONE, 0, clients));
            }
        }
        try (BenchTarget.Tso cluster = target.tso(CommitMode.BATCHED, NAMESPACE)) {
            results.add(2, runScenario(cluster, "batched", CommitRecordSink.NONE, 0));
        }
        if (options.omid()) {
            results.addAll(new OmidTsoScenarios(target.connection(), options.clients(), options.window(),
                    new Measurement(options.run().perRun(), clock)).run(this::omidStarting));
        }
        results.addAll(sweep);
        writeReport(results, sweep);
        return results;
    }

    private void omidStarting(String scenario) {
        log.printf(Locale.ROOT, "tso benchmark: %s, %d Omid clients (%s)%n", scenario, options.clients(),
                options.run().perRun().describe());
        clock.phase(scenario + ", " + options.clients() + (options.clients() == 1 ? " client" : " clients"));
    }

    private TsoRunResult runScenario(BenchTarget.Tso cluster, String scenario, CommitRecordSink sink, long rate)
            throws InterruptedException {
        return runScenario(cluster, scenario, sink, rate, options.clients());
    }

    private TsoRunResult runScenario(BenchTarget.Tso cluster, String scenario, CommitRecordSink sink, long rate,
                                     int clientCount) throws InterruptedException {
        log.printf(Locale.ROOT, "tso benchmark: %s%s, %d clients (%s)%n", scenario,
                rate > 0 ? " at " + rate + " pairs/s" : "", clientCount, options.run().perRun().describe());
        clock.phase(scenario + ", " + clientCount + (clientCount == 1 ? " client" : " clients"));
        List<TsoClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < clientCount; i++) {
                clients.add(NettyTsoClient.create(cluster.clientConfig(), target.connection().getConfiguration()));
            }
            TsoRun run = new TsoRun(clients, sink, options.run().perRun(), clock);
            String mode = cluster.commitMode().configName();
            return rate > 0 ? run.atRate(scenario, mode, rate) : run.saturate(scenario, mode, options.window());
        } finally {
            clients.forEach(TsoClient::close);
        }
    }

    private void writeReport(List<TsoRunResult> results, List<TsoRunResult> sweep) throws IOException {
        StringBuilder notes = new StringBuilder(notes(results));
        if (!sweep.isEmpty()) {
            notes.append("Client sweep: the low-latency TSO alone (no commit records), each client on its own ")
                    .append("connection keeping ").append(options.window()).append(" pairs outstanding.\n\n");
            notes.append(ReportWriter.image("TSO throughput vs clients",
                    Charts.save(sweepThroughput(sweep), options.run().outputFolder(), "tso-clients-throughput.png")));
            notes.append(ReportWriter.image("TSO latency vs clients",
                    Charts.save(sweepLatency(sweep), options.run().outputFolder(), "tso-clients-latency.png")));
        }
        writeResults("TSO benchmark: BEGIN + COMMIT pairs", table(results), notes);
    }

    private static XYChart sweepThroughput(List<TsoRunResult> sweep) {
        XYChart chart = Charts.lines("TSO throughput vs clients (low-latency)", "clients", "pairs/s");
        chart.addSeries("BEGIN+COMMIT pairs", clients(sweep),
                sweep.stream().mapToDouble(TsoRunResult::pairsPerSecond).toArray());
        return chart;
    }

    private static XYChart sweepLatency(List<TsoRunResult> sweep) {
        XYChart chart = Charts.lines("TSO latency vs clients (low-latency)", "clients", "latency (ms)");
        double[] x = clients(sweep);
        chart.addSeries("BEGIN p50", x, sweep.stream().mapToDouble(r -> r.begin().p50Ms()).toArray());
        chart.addSeries("BEGIN p99", x, sweep.stream().mapToDouble(r -> r.begin().p99Ms()).toArray());
        chart.addSeries("COMMIT p50", x, sweep.stream().mapToDouble(r -> r.commit().p50Ms()).toArray());
        chart.addSeries("COMMIT p99", x, sweep.stream().mapToDouble(r -> r.commit().p99Ms()).toArray());
        return chart;
    }

    private static double[] clients(List<TsoRunResult> sweep) {
        return sweep.stream().mapToDouble(TsoRunResult::clients).toArray();
    }

    /** The results as a table (also what the command line prints). */
    public static ResultTable table(List<TsoRunResult> results) {
        ResultTable table = new ResultTable("scenario", "commit_mode", "clients", "target_pairs_per_s",
                "pairs_per_s", "pairs", "aborts", "errors", "begin_p50_ms", "begin_p99_ms", "commit_p50_ms",
                "commit_p99_ms");
        for (TsoRunResult r : results) {
            table.addRow(r.scenario(), r.commitMode(), r.clients(), r.targetRate(),
                    String.format(Locale.ROOT, "%.0f", r.pairsPerSecond()), r.pairs(), r.aborts(), r.errors(),
                    LatencySummary.ms(r.begin().p50Ms()), LatencySummary.ms(r.begin().p99Ms()),
                    LatencySummary.ms(r.commit().p50Ms()), LatencySummary.ms(r.commit().p99Ms()));
        }
        return table;
    }

    private String notes(List<TsoRunResult> results) {
        StringBuilder notes = new StringBuilder();
        notes.append("Each client has its own TSO connection and keeps ").append(options.window())
                .append(" BEGIN+COMMIT pairs outstanding (the half-rate run sends on a fixed schedule instead). ")
                .append("Write sets are two random 64-bit cell ids. COMMIT latency runs from sending COMMIT to the ")
                .append("commit being durable: the TSO reply, plus the client's commit-record write in the ")
                .append("\"commit record\" scenario. ").append(options.run().timing("scenario"))
                .append("; TSO, clients and HBase share one JVM.\n\n");
        if (options.omid()) {
            notes.append("The omid scenarios run Apache Omid 1.1.3's TSO in low-latency mode in the same JVM, each ")
                    .append("client an Omid TSOClient keeping the same window; with the commit record, each commit ")
                    .append("is followed by Omid's own atomicAddCommittedTransaction (one check-and-mutate) on a ")
                    .append("thread of its own, as Omid's client writes it (docs/benchmarks.md).\n\n");
        }
        for (TsoRunResult r : results) {
            if (r.targetRate() > 0) {
                notes.append(String.format(Locale.ROOT,
                        "p99 COMMIT latency of the low-latency TSO at %s (%d pairs/s): %s ms.%n%n",
                        options.targetRate() > 0 ? "a fixed rate" : "half its saturation rate", r.targetRate(),
                        LatencySummary.ms(r.commit().p99Ms())));
            }
            if (r.firstError() != null) {
                notes.append("First error in \"").append(r.scenario()).append("\" with ").append(r.clients())
                        .append(" clients: ").append(r.firstError()).append("\n\n");
            }
        }
        return notes.toString();
    }
}
