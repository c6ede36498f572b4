package io.tidemark.bench.attack;

import io.tidemark.bench.report.ReportWriter;
import io.tidemark.bench.report.RunStorage;
import io.tidemark.bench.report.ResultTable;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Repeats each attack of issue 11 against one TSO process on 127.0.0.1 while a normal client keeps committing, and
 * reports per attack the normal client's latency (p50, p99, max of BEGIN+COMMIT) and errors, and the TSO's resident
 * memory before, during (the highest sample) and after. A run passes when, during every attack, the normal client
 * committed with no error and a p99 under the bound, and the TSO stayed up.
 */
public final class AttackBenchmark {

    /** Time for the TSO to close what the attack left before "after" is measured. */
    private static final Duration SETTLE = Duration.ofSeconds(3);
    private static final Duration WARM_UP = Duration.ofSeconds(3);
    private static final long RSS_SAMPLE_MS = 200;

    private final AttackOptions options;
    private final PrintStream out;
    private final List<String> failures = new ArrayList<>();

    public AttackBenchmark(AttackOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
    }

    /** The attacks, in the order they run. */
    List<Attack> attacks() {
        return List.of(
                new IdleConnections(options.idleConnections()),
                new Slowloris(options.slowloris(), Duration.ofSeconds(1)),
                new PartialFrames(options.partialFrames(), 16 * 1024 * 1024, false),
                new PartialFrames(options.partialFrames(), 0, true),
                new UnreadReplies(Long.MAX_VALUE));
    }

    /** Runs everything; returns whether every attack passed. */
    public boolean run() throws IOException, InterruptedException {
        Files.createDirectories(options.output());
        ResultTable table = new ResultTable("attack", "normal commits", "normal p50 ms", "normal p99 ms",
                "normal max ms", "normal errors", "TSO RSS before MiB", "during (max) MiB", "after MiB",
                "what the attack saw");
        try (TsoChild tso = TsoChild.start(options.tsoCommand(), options.output().resolve("tso.log"));
             NormalClient normal = new NormalClient(tso.address())) {
            out.println("TSO process " + tso.pid() + " serves on " + tso.address() + "; normal client warming up");
            TimeUnit.MILLISECONDS.sleep(WARM_UP.toMillis());
            measure(tso, normal, table, null, options.attackLength());
            for (Attack attack : attacks()) {
                Duration length = attack instanceof UnreadReplies ? options.unreadLength() : options.attackLength();
                measure(tso, normal, table, attack, length);
            }
        }
        String notes = "Normal client: one thread, BEGIN then COMMIT in a closed loop with the production TSO client;"
                + " latency per pair. TSO: one process (" + String.join(" ", options.tsoCommand().subList(
                        options.tsoCommand().size() - 1, options.tsoCommand().size())) + ", default limits unless"
                + " set), its resident set read from /proc. p99 bound: " + options.p99BoundMs() + " ms.\n\n"
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

    private void measure(TsoChild tso, NormalClient normal, ResultTable table, Attack attack, Duration length)
            throws InterruptedException {
        String name = attack == null ? "none (baseline)" : attack.name();
        out.println("Running: " + name + " for up to " + length.toSeconds() + " s");
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
        normal.startWindow();
        sampler.start();
        if (attack == null) {
            TimeUnit.NANOSECONDS.sleep(length.toNanos());
        } else {
            attack.run(tso.address(), length);
        }
        NormalClient.Window window = normal.endWindow(Duration.ofNanos(System.nanoTime() - started));
        sampler.interrupt();
        sampler.join();
        TimeUnit.MILLISECONDS.sleep(SETTLE.toMillis());
        long after = ProcessMemory.residentKiB(tso.pid());
        table.addRow(name, window.commits(), ms(window.p50Ms()), ms(window.p99Ms()), ms(window.maxMs()),
                window.errors() == 0 ? "0" : window.errors() + " (" + window.firstError() + ")", mib(before),
                mib(peak.get()), mib(after), attack == null ? "" : attack.outcome());
        if (!tso.isAlive()) {
            failures.add(name + ": the TSO process died");
        }
        if (window.errors() > 0 || window.commits() == 0) {
            failures.add(name + ": the normal client had " + window.errors() + " errors and " + window.commits()
                    + " commits");
        }
        if (window.p99Ms() > options.p99BoundMs()) {
            failures.add(name + ": normal client p99 " + ms(window.p99Ms()) + " ms above the bound of "
                    + options.p99BoundMs() + " ms");
        }
    }

    private static String ms(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }

    private static String mib(long kib) {
        return kib < 0 ? "?" : String.format(Locale.ROOT, "%.0f", kib / 1024.0);
    }
}
