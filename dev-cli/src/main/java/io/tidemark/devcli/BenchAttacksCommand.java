package io.tidemark.devcli;

import io.tidemark.bench.attack.AttackBenchmark;
import io.tidemark.bench.attack.AttackOptions;
import io.tidemark.bench.attack.StandaloneTso;
import io.tidemark.bench.report.ReportWriter;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.embedded.ChildJvm;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** "bench attacks": issue 11's hostile and broken clients against a TSO process, with a normal client committing. */
@Command(name = "attacks", mixinStandardHelpOptions = true,
        description = {"Starts a TSO in a process of its own (in-memory storage, default limits unless --set) on"
                + " 127.0.0.1 and a normal client that keeps committing, then runs each attack in turn: idle"
                + " connections beyond the connection limit, slowloris connections sending one byte a second,"
                + " partial 16 MiB frames before HELLO, partial largest-accepted frames after HELLO, and a client that"
                + " pipelines BEGINs and never reads its replies.",
                "Reports the normal client's p50/p99/max per attack and the TSO's resident memory before, during and"
                        + " after. Exit code 1 when the normal client failed, its p99 passed the bound, or the TSO"
                        + " died. Traffic goes to 127.0.0.1 only. Defaults take about 3 minutes."})
final class BenchAttacksCommand implements Callable<Integer> {

    static final String NAME = "attacks";

    @Option(names = "--seconds", defaultValue = "20", paramLabel = "<seconds>",
            description = "How long each attack (and the baseline) runs (default: ${DEFAULT-VALUE}).")
    private int seconds;

    @Option(names = "--unread-seconds", defaultValue = "45", paramLabel = "<seconds>",
            description = "How long the never-reading client may run; longer than the TSO's reply-stall timeout"
                    + " (default " + TidemarkConfig.TSO_REPLY_STALL_TIMEOUT_MS_DEFAULT + " ms) to see it closed"
                    + " (default: ${DEFAULT-VALUE}).")
    private int unreadSeconds;

    @Option(names = "--idle", defaultValue = "" + (TidemarkConfig.TSO_MAX_CONNECTIONS_DEFAULT + 1000),
            paramLabel = "<n>", description = "Idle connections to open (default: ${DEFAULT-VALUE}, 1000 above the"
                    + " default connection limit).")
    private int idle;

    @Option(names = "--slowloris", defaultValue = "1000", paramLabel = "<n>",
            description = "Slowloris connections (default: ${DEFAULT-VALUE}).")
    private int slowloris;

    @Option(names = "--partial", defaultValue = "200", paramLabel = "<n>",
            description = "Connections with partial frames, before and after HELLO (default: ${DEFAULT-VALUE}).")
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
        List<String> args = new ArrayList<>();
        settings.forEach((key, value) -> args.add(key + "=" + value));
        AttackOptions options;
        try {
            options = new AttackOptions(ChildJvm.command(tsoHeap, StandaloneTso.class.getName(),
                    args.toArray(new String[0])), Duration.ofSeconds(seconds), idle, slowloris, partial,
                    Duration.ofSeconds(unreadSeconds), p99Bound,
                    output != null ? output : ReportWriter.defaultFolder(NAME));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        return new AttackBenchmark(options, System.out).run() ? 0 : 1;
    }
}
