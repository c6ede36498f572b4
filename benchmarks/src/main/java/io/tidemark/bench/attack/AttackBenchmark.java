package io.tidemark.bench.attack;

import io.tidemark.bench.report.ReportWriter;
import io.tidemark.bench.report.ResultTable;
import io.tidemark.bench.report.RunStorage;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.embedded.ChildJvm;
import io.tidemark.tso.TsoMemory;
import io.tidemark.tso.TsoSettings;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs the attacks of issues 11 and 33 against a TSO process on 127.0.0.1 while a normal client keeps committing, each
 * against a baseline of the same TSO in the same run: first a plaintext TSO, then one with mutual TLS (for the fences
 * of an authenticated client and the TLS handshake flood). Per attack it reports the normal client's p50/p99 (BEGIN
 * plus COMMIT) and aborts, the slowest answer of /health, newcomers refused, and the TSO's resident memory before,
 * during (the highest sample) and after.
 *
 * <p>An attack passes (issue 33's bounds) when during it the normal client committed with no error and no abort (its
 * transactions never conflict, so every abort is the attack's), its p50 stayed within {@value #P50_FACTOR} times the
 * baseline's and its p99 under the bound, /health answered every poll within {@value #HEALTH_BOUND_MS} ms, the TSO's
 * resident memory stayed within {@link TsoMemory#residentBound} of its settings, and the TSO stayed up.
 */
public final class AttackBenchmark {

    static final double P50_FACTOR = 2;
    static final double HEALTH_BOUND_MS = 1000;
    /** Time for the TSO to close what the attack left before "after" is measured. */
    private static final Duration SETTLE = Duration.ofSeconds(3);
    private static final Duration WARM_UP = Duration.ofSeconds(3);
    private static final long RSS_SAMPLE_MS = 200;
    private static final int FLOOD_CONNECTIONS = 4;

    private final AttackOptions options;
    private final PrintStream out;
    private final List<String> failures = new ArrayList<>();
    private final long memoryBoundKiB;

    public AttackBenchmark(AttackOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
        this.memoryBoundKiB = TsoMemory.residentBound(new TsoSettings(InMemoryTso.config(options.settings())),
                options.tsoHeapBytes()) >> 10;
    }

    /** The attacks on the plaintext TSO, in the order they run. */
    List<Attack> plaintextAttacks() {
        int entries = Integer.parseInt(options.settings().getOrDefault(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES,
                Integer.toString(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES.defaultValue())));
        return List.of(
                new LowWatermarkPush(entries),
                new IdleConnections(options.idleConnections(), 1),
                new IdleConnections(options.idleConnections(), 64),
                new Slowloris(options.slowloris(), Duration.ofSeconds(1)),
                new PartialFrames(options.partialFrames(), 1, 16 * 1024 * 1024, false),
                new PartialFrames(options.partialFrames(), 20, 0, true),
                new HttpSlowloris(300),
                new BeginFlood(FLOOD_CONNECTIONS),
                new MaxSizeCommits(),
                new UnreadReplies(Long.MAX_VALUE));
    }

    /** The attacks on the TSO with mutual TLS. */
    List<Attack> mutualTlsAttacks() {
        return List.of(new FenceAttack(), new HandshakeFlood());
    }

    /** Runs everything; returns whether every attack passed. */
    public boolean run() throws IOException, InterruptedException {
        Files.createDirectories(options.output());
        ResultTable table = new ResultTable("TSO", "attack", "normal commits", "normal aborts", "normal p50 ms",
                "normal p99 ms", "/health slowest ms", "/health failed", "newcomers refused", "TSO CPU %",
                "TSO RSS before MiB",
                "during (max) MiB", "after MiB", "what the attack saw");
        runPhase("plaintext", options.settings(), null, plaintextAttacks(), table);
        MutualTls tls = MutualTls.create(options.output().resolve("certificates"));
        Map<String, String> mutual = new LinkedHashMap<>(options.settings());
        mutual.putAll(tls.tsoSettings());
        runPhase("mutual TLS", mutual, tls, mutualTlsAttacks(), table);
        String notes = "Normal client: the production TSO client from 127.0.0.1, one thread committing BEGIN then"
                + " COMMIT of two random cells in a closed loop (latency per pair) and one keeping each transaction"
                + " open " + NormalClient.OPEN_MS + " ms; their cells never conflict, so every abort is the attack's."
                + " Attackers connect from other loopback addresses (127.0.x.y), spread over many where the row says"
                + " so. /health: a fresh connection every " + Probes.HEALTH_INTERVAL_MS + " ms; newcomers: a new"
                + " connection saying HELLO every " + Probes.NEWCOMER_INTERVAL_MS + " ms. TSO CPU: its process's user"
                + " and system time over the window (100 % is one core). TSO: one process, -Xmx"
                + options.tsoHeap() + ", in-memory storage, default limits" + (options.settings().isEmpty() ? ""
                : " except " + options.settings()) + "; its resident set read from /proc.\n\nBounds (issue 33):"
                + " no normal abort or error, normal p50 at most " + P50_FACTOR + "x the same TSO's baseline, p99"
                + " under " + options.p99BoundMs() + " ms, /health within " + HEALTH_BOUND_MS + " ms at every poll,"
                + " resident memory within " + (memoryBoundKiB >> 10) + " MiB (heap + max-buffered-frame-bytes +"
                + " max-connections x (max-pending-reply-bytes + 64 KiB) + 256 MiB).\n\n"
                + (failures.isEmpty() ? "Every attack passed.\n" : "FAILED:\n- " + String.join("\n- ", failures)
                + "\n") + "\n" + ReportWriter.environment() + "\n";
        ReportWriter.write(options.output(), "TSO under attack", table, notes, RunStorage.NO_HBASE);
        out.println();
        out.print(table.toText());
        out.println();
        out.print(notes);
        out.println("Results in " + options.output());
        return failures.isEmpty();
    }

    private void runPhase(String label, Map<String, String> settings, MutualTls tls, List<Attack> attacks,
                          ResultTable table) throws IOException, InterruptedException {
        List<String> args = new ArrayList<>();
        settings.forEach((key, value) -> args.add(key + "=" + value));
        List<String> command = ChildJvm.command(options.tsoHeap(), StandaloneTso.class.getName(),
                args.toArray(new String[0]));
        String logName = "tso-" + label.replace(' ', '-') + ".log";
        try (TsoChild tso = TsoChild.start(command, options.output().resolve(logName))) {
            Target target = new Target(tso.address(), tso.httpAddress(), tls == null ? null : tls.intruder(),
                    tls == null ? null : tls.anonymous());
            try (NormalClient normal = new NormalClient(tso.address(), tls == null ? null : tls.normalClient());
                 Probes probes = new Probes(target)) {
                out.println("TSO process " + tso.pid() + " (" + label + ") serves on " + tso.address()
                        + "; normal client warming up");
                normal.awaitFirstCommit(Duration.ofSeconds(30));
                TimeUnit.MILLISECONDS.sleep(WARM_UP.toMillis());
                double baselineP50 = measure(label, tso, target, normal, probes, table, null, options.attackLength(),
                        0);
                for (Attack attack : attacks) {
                    Duration length = attack instanceof UnreadReplies ? options.unreadLength()
                            : options.attackLength();
                    measure(label, tso, target, normal, probes, table, attack, length, baselineP50);
                }
            }
        }
    }

    /** Measures one window (the baseline when {@code attack} is null); returns the normal client's p50. */
    private double measure(String label, TsoChild tso, Target target, NormalClient normal, Probes probes,
                           ResultTable table, Attack attack, Duration length, double baselineP50)
            throws InterruptedException {
        String name = attack == null ? "none (baseline)" : attack.name();
        out.println("Running (" + label + "): " + name + " for up to " + length.toSeconds() + " s");
        long before = ProcessMemory.residentKiB(tso.pid());
        AtomicLong peak = new AtomicLong(before);
        Thread sampler = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                peak.accumulateAndGet(ProcessMemory.residentKiB(tso.pid()), Math::max);
                try {
                    TimeUnit.MILLISECONDS.sleep(RSS_SAMPLE_MS);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "rss-sampler");
        sampler.setDaemon(true);
        long started = System.nanoTime();
        long cpuBefore = ProcessMemory.cpuMillis(tso.pid());
        normal.startWindow();
        probes.startWindow();
        sampler.start();
        if (attack == null) {
            TimeUnit.NANOSECONDS.sleep(length.toNanos());
        } else {
            attack.run(target, length);
        }
        long elapsedNanos = System.nanoTime() - started;
        NormalClient.Window window = normal.endWindow(Duration.ofNanos(elapsedNanos));
        Probes.Window probed = probes.endWindow();
        long cpu = ProcessMemory.cpuMillis(tso.pid()) - cpuBefore;
        sampler.interrupt();
        sampler.join();
        TimeUnit.MILLISECONDS.sleep(SETTLE.toMillis());
        long after = ProcessMemory.residentKiB(tso.pid());
        table.addRow(label, name, window.commits(), window.aborts() == 0 ? "0" : window.aborts() + " ("
                        + window.firstAbort() + ")", ms(window.p50Ms()), ms(window.p99Ms()), ms(probed.healthMaxMs()),
                probed.healthFailures() + " of " + probed.healthChecks(),
                probed.newcomersRefused() + " of " + probed.newcomers(),
                String.format(Locale.ROOT, "%.0f", cpu * 1e8 / elapsedNanos), mib(before), mib(peak.get()), mib(after),
                attack == null ? "" : attack.outcome());
        check(label + ", " + name, tso, window, probed, peak.get(), baselineP50);
        return window.p50Ms();
    }

    private void check(String what, TsoChild tso, NormalClient.Window window, Probes.Window probed, long peakKiB,
                       double baselineP50) {
        if (!tso.isAlive()) {
            failures.add(what + ": the TSO process died");
        }
        if (window.errors() > 0 || window.commits() == 0) {
            failures.add(what + ": the normal client had " + window.errors() + " errors (" + window.firstError()
                    + ") and " + window.commits() + " commits");
        }
        if (window.aborts() > 0) {
            failures.add(what + ": the normal client had " + window.aborts() + " aborts (" + window.firstAbort()
                    + ")");
        }
        if (baselineP50 > 0 && window.p50Ms() > P50_FACTOR * baselineP50) {
            failures.add(what + ": normal client p50 " + ms(window.p50Ms()) + " ms, more than " + P50_FACTOR
                    + "x the baseline's " + ms(baselineP50) + " ms");
        }
        if (window.p99Ms() > options.p99BoundMs()) {
            failures.add(what + ": normal client p99 " + ms(window.p99Ms()) + " ms above the bound of "
                    + options.p99BoundMs() + " ms");
        }
        if (probed.healthFailures() > 0 || probed.healthMaxMs() > HEALTH_BOUND_MS) {
            failures.add(what + ": /health failed " + probed.healthFailures() + " of " + probed.healthChecks()
                    + " polls, slowest answer " + ms(probed.healthMaxMs()) + " ms");
        }
        if (peakKiB > memoryBoundKiB) {
            failures.add(what + ": the TSO's resident memory reached " + mib(peakKiB) + " MiB, above its bound of "
                    + mib(memoryBoundKiB) + " MiB");
        }
    }

    private static String ms(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }

    private static String mib(long kib) {
        return kib < 0 ? "?" : String.format(Locale.ROOT, "%.0f", kib / 1024.0);
    }
}
