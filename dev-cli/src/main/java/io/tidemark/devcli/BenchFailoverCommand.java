package io.tidemark.devcli;

import io.tidemark.bench.failover.FailoverBenchmark;
import io.tidemark.bench.failover.FailoverOptions;
import io.tidemark.bench.failover.FailoverResult;
import io.tidemark.bench.report.ReportWriter;
import io.tidemark.cli.CommitModeConverter;
import io.tidemark.embedded.ChildJvm;
import io.tidemark.protocol.CommitMode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/** "bench failover": kill -9 of the active TSO process under a bank workload, with a standby taking over. */
@Command(name = "failover", mixinStandardHelpOptions = true,
        description = {"Starts an embedded HBase, two TSO processes (./tidemark tso: one active, one standby) and a "
                + "bank workload whose clients find the active TSO through ZooKeeper, all with default settings. "
                + "Then, --kills times: kill -9 of the active TSO, wait for the standby to take over, restart the "
                + "killed one as the next standby.",
                "Reports the failover time (kill to the first commit on the new active TSO) and checks that no "
                        + "audit saw a wrong total and that every account holds exactly what the committed "
                        + "transfers say. Exit code 1 when a check fails. Defaults take about 2 minutes."})
final class BenchFailoverCommand implements Callable<Integer> {

    static final String NAME = "failover";

    @Option(names = "--kills", defaultValue = "10", paramLabel = "<n>",
            description = "Times the active TSO is killed (default: ${DEFAULT-VALUE}).")
    private int kills;

    @Option(names = "--mode", defaultValue = "low-latency", paramLabel = "<mode>",
            converter = CommitModeConverter.class, completionCandidates = CommitModeConverter.Names.class,
            description = "Commit mode: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    private CommitMode mode;

    @Option(names = "--between", defaultValue = "3", paramLabel = "<seconds>",
            description = "Seconds the workload runs between two kills (default: ${DEFAULT-VALUE}).")
    private int betweenSeconds;

    @Option(names = "--threads", defaultValue = "4", paramLabel = "<n>",
            description = "Transfer threads (default: ${DEFAULT-VALUE}).")
    private int threads;

    @Option(names = "--accounts", defaultValue = "100", paramLabel = "<n>",
            description = "Bank accounts (default: ${DEFAULT-VALUE}).")
    private int accounts;

    @Mixin
    private StorageOption storage;

    @Option(names = "--output", paramLabel = "<folder>",
            description = "Folder for the TSO logs and summary.md (default: bench-results/failover-<time>).")
    private Path output;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (betweenSeconds < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--between must not be negative, got " + betweenSeconds);
        }
        FailoverOptions options = UsageErrors.options(spec.commandLine(), () -> new FailoverOptions(kills,
                ChildJvm.command("512m", io.tidemark.cli.Main.class.getName(), "tso", "--port", "0"), mode,
                accounts, threads, Duration.ofSeconds(betweenSeconds), ReportWriter.outputFolder(output, NAME),
                storage.storage()));
        FailoverResult result = new FailoverBenchmark(options, System.out).run();
        String summary = summary(options, result);
        System.out.print(summary);
        Files.writeString(options.workDirectory().resolve("summary.md"), summary, StandardCharsets.UTF_8);
        if (!result.correct()) {
            throw new IllegalStateException("the failover run failed its checks (see above)");
        }
        return 0;
    }

    static String summary(FailoverOptions options, FailoverResult result) {
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "%n## TSO failover: %d kill(s), %s mode, default lease and client settings%n%n",
                result.failoverMillis().size(), options.commitMode().configName()));
        s.append("Storage: **").append(options.storage().label()).append("**, embedded HBase on the ")
                .append(options.storage().description()).append(".\n\n");
        s.append("| | p50 | p90 | max |\n|---|---|---|---|\n");
        s.append(String.format(Locale.ROOT, "| kill -9 to first commit on the new active TSO (ms) | %d | %d | %d |%n",
                result.failoverPercentile(50), result.failoverPercentile(90), result.failoverPercentile(100)));
        s.append(String.format(Locale.ROOT, "| kill -9 to the standby serving (ms) | %d | %d | %d |%n%n",
                result.takeoverPercentile(50), result.takeoverPercentile(90), result.takeoverPercentile(100)));
        s.append("Failover times (ms): ").append(result.failoverMillis().stream().map(String::valueOf)
                .collect(Collectors.joining(", "))).append("\n\n");
        s.append(String.format(Locale.ROOT, "Bank: %d transfers committed, %d aborted, %d errors, %d audits.%n",
                result.bank().committed(), result.bank().aborted(), result.bank().errors(), result.bank().audits()));
        if (result.bank().firstError() != null) {
            s.append("First error: ").append(result.bank().firstError()).append('\n');
        }
        s.append("Invariant in every snapshot: ").append(result.bank().invariantHolds() ? "held"
                : "VIOLATED: " + result.bank().violation()).append('\n');
        s.append("Committed transfers vs final balances: ").append(result.ledgerMismatch() == null
                ? "every account holds exactly what the committed transfers say" : "MISMATCH: "
                + result.ledgerMismatch()).append('\n');
        if (result.failure() != null) {
            s.append("FAILED: ").append(result.failure()).append('\n');
        }
        return s.toString();
    }
}
