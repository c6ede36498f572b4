package io.tidemark.devcli;

import io.tidemark.bench.report.LatencySummary;
import io.tidemark.cli.FailureHandler;
import io.tidemark.embedded.EmbeddedCluster;
import io.tidemark.workload.bank.BankOptions;
import io.tidemark.workload.bank.BankResult;
import io.tidemark.workload.bank.BankWorkload;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * Shows Tidemark working on this machine in one command: an embedded HBase and TSO, concurrent bank transfers with
 * conflicts, and an auditor proving that no snapshot ever sees money appear or disappear.
 */
@Command(name = "quickstart", mixinStandardHelpOptions = true,
        description = {"Starts an embedded HBase and TSO, runs concurrent bank transfers while an auditor checks "
                + "every snapshot, prints a summary and stops everything.",
                "The last line of the output is: quickstart: <N> committed, <M> aborted, invariant holds, "
                        + "p50=<x>ms p99=<y>ms"})
final class QuickstartCommand implements Callable<Integer> {

    @Option(names = "--seconds", defaultValue = "15", paramLabel = "<seconds>",
            description = "How long the transfers run (default: ${DEFAULT-VALUE}).")
    private int seconds;

    @Option(names = "--threads", defaultValue = "4", paramLabel = "<n>",
            description = "Concurrent transfer threads (default: ${DEFAULT-VALUE}).")
    private int threads;

    @Option(names = "--accounts", defaultValue = "100", paramLabel = "<n>",
            description = "Bank accounts; fewer accounts mean more conflicts (default: ${DEFAULT-VALUE}).")
    private int accounts;

    @CommandLine.Mixin
    private EmbeddedClusterOptions embedded;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        BankOptions options = options();
        PrintStream out = System.out;
        out.println(embedded.startingLine());
        BankResult result;
        try (EmbeddedCluster cluster = embedded.builder().start()) {
            out.printf(Locale.ROOT, "Running %d transfer threads on %d accounts for %d s, auditing every "
                    + "snapshot...%n", threads, accounts, seconds);
            try (ProgressDisplay progress = new ProgressDisplay("transfers", seconds, "s")) {
                result = new BankWorkload(cluster.connection(), cluster.clientConfig(), options).run(p ->
                        progress.update(p.elapsedMillis() / 1000, p.committed() + " committed, " + p.aborted()
                                + " aborted"));
            }
            out.println("Stopping...");
        }
        return report(result, out);
    }

    private BankOptions options() {
        requirePositive("--seconds", seconds);
        requirePositive("--threads", threads);
        if (accounts < 2) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--accounts must be at least 2, got " + accounts);
        }
        return BankOptions.defaults().withAccounts(accounts).withThreads(threads)
                .withDuration(Duration.ofSeconds(seconds));
    }

    private void requirePositive(String option, int value) {
        if (value < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    option + " must be at least 1, got " + value);
        }
    }

    private static int report(BankResult r, PrintStream out) {
        out.printf(Locale.ROOT, "Transfers: %d committed (%.0f/s), %d aborted by conflicts and retried, "
                        + "%d failed%n", r.committed(), r.committedPerSecond(), r.aborted(), r.errors());
        out.printf(Locale.ROOT, "Audits: %d snapshot reads of all accounts%n", r.audits());
        out.printf(Locale.ROOT, "Transfer latency: p50 %s ms, p99 %s ms, mean %s ms%n",
                LatencySummary.ms(r.p50Ms()), LatencySummary.ms(r.p99Ms()), LatencySummary.ms(r.latency().meanMs()));
        if (r.firstError() != null) {
            out.println("First failure: " + r.firstError());
        }
        if (!r.invariantHolds()) {
            out.println("quickstart: INVARIANT VIOLATED: " + r.violation());
            return FailureHandler.FAILURE_EXIT_CODE;
        }
        if (r.committed() == 0) {
            out.println("quickstart: no transfer committed"
                    + (r.firstError() == null ? "" : " (first failure: " + r.firstError() + ")"));
            return FailureHandler.FAILURE_EXIT_CODE;
        }
        out.printf(Locale.ROOT, "quickstart: %d committed, %d aborted, invariant holds, p50=%sms p99=%sms%n",
                r.committed(), r.aborted(), LatencySummary.ms(r.p50Ms()), LatencySummary.ms(r.p99Ms()));
        return 0;
    }
}
