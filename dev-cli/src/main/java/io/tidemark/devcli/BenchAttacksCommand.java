package io.tidemark.devcli;

import io.tidemark.bench.attack.AttackBenchmark;
import io.tidemark.bench.attack.AttackOptions;
import io.tidemark.bench.report.ReportWriter;
import io.tidemark.config.TidemarkConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/** "bench attacks": issues 11 and 33's hostile and broken clients against a TSO process, with a normal client. */
@Command(name = "attacks", mixinStandardHelpOptions = true,
        description = {"Starts a TSO in a process of its own (in-memory storage, default limits unless --set) on"
                + " 127.0.0.1 and a normal client that keeps committing, then runs each attack in turn: one-cell"
                + " commits aimed at one conflict-map bucket (low-watermark push), idle connections from one address"
                + " and from 64, slowloris connections, partial 16 MiB frames before HELLO, partial largest-accepted"
                + " frames after HELLO, half-sent HTTP requests, a BEGIN flood from 4 connections, maximum-size commits"
                + " back to back, and a client that never reads its replies; then, against a TSO with mutual TLS,"
                + " fences raised by an authenticated client and a TLS handshake flood without a certificate.",
                "Reports per attack the normal client's p50/p99 and aborts, the slowest /health answer, newcomers"
                        + " refused and the TSO's resident memory, each TSO against its own baseline. Exit code 1"
                        + " when a bound is missed: a normal abort or error, p50 above 2x the baseline, p99 above"
                        + " the bound, /health slower than 1 s or failing, resident memory above the bound of the"
                        + " TSO's settings, or the TSO died. Traffic goes to 127.0.0.0/8 only. Defaults take about"
                        + " 6 minutes."})
final class BenchAttacksCommand implements Callable<Integer> {

    static final String NAME = "attacks";

    @Option(names = "--seconds", defaultValue = "20", paramLabel = "<seconds>",
            description = "How long each attack (and the baseline) runs (default: ${DEFAULT-VALUE}).")
    private int seconds;

    @Option(names = "--unread-seconds", defaultValue = "45", paramLabel = "<seconds>",
            description = "How long the never-reading client may run; longer than the TSO's reply-stall timeout"
                    + " (default ${bundle:default.tidemark.tso.reply-stall-timeout-ms} ms) to see it closed"
                    + " (default: ${DEFAULT-VALUE}).")
    private int unreadSeconds;

    @Option(names = "--idle", paramLabel = "<n>", description = "Idle connections to open (default:"
            + " ${DEFAULT-VALUE}, 1000 above the default connection limit).")
    private int idle = TidemarkConfig.TSO_MAX_CONNECTIONS.defaultValue() + 1000;

    @Option(names = "--slowloris", defaultValue = "1000", paramLabel = "<n>",
            description = "Slowloris connections (default: ${DEFAULT-VALUE}).")
    private int slowloris;

    @Option(names = "--partial", defaultValue = "2000", paramLabel = "<n>",
            description = "Connections with partial frames, before HELLO (from one address) and after HELLO (from"
                    + " 20) (default: ${DEFAULT-VALUE}).")
    private int partial;

    @Option(names = "--p99-bound-ms", defaultValue = "50", paramLabel = "<ms>",
            description = "The normal client's p99 must stay under this during every attack (default:"
                    + " ${DEFAULT-VALUE}).")
    private double p99Bound;

    @Option(names = "--tso-heap", defaultValue = "1g", paramLabel = "<size>",
            description = "-Xmx of the TSO process (default: ${DEFAULT-VALUE}).")
    private String tsoHeap;

    @Option(names = "--set", paramLabel = "<key=value>",
            description = "A tidemark.tso.* setting for the TSO process; repeatable.")
    private Map<String, String> settings = new LinkedHashMap<>();

    @Option(names = "--output", paramLabel = "<folder>",
            description = "Folder for summary.md, results.csv and the TSO log (default: bench-results/attacks-<time>).")
    private Path output;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        AttackOptions options = UsageErrors.options(spec.commandLine(), () -> new AttackOptions(tsoHeap, settings,
                Duration.ofSeconds(seconds), idle, slowloris, partial, Duration.ofSeconds(unreadSeconds), p99Bound,
                ReportWriter.outputFolder(output, NAME)));
        return new AttackBenchmark(options, System.out).run() ? 0 : 1;
    }
}
