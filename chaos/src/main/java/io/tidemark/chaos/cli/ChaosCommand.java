package io.tidemark.chaos.cli;

import io.tidemark.chaos.cluster.ProcessChaosCluster;
import io.tidemark.chaos.processes.NamespacedChaos;
import io.tidemark.chaos.processes.ProcessScenarios;
import io.tidemark.chaos.run.ChaosSuite;
import io.tidemark.chaos.run.RunLength;
import io.tidemark.chaos.run.ScenarioResult;
import io.tidemark.chaos.scenario.Scenario;
import io.tidemark.chaos.scenario.Scenarios;
import io.tidemark.cli.CommitModeConverter;
import io.tidemark.cli.PostCommitModeConverter;
import io.tidemark.client.PostCommitMode;
import io.tidemark.processcluster.network.HostNetwork;
import io.tidemark.processcluster.network.NamespaceNetwork;
import io.tidemark.processcluster.network.NetworkNamespace;
import io.tidemark.processcluster.network.ProcessNetwork;
import io.tidemark.protocol.CommitMode;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/**
 * Runs Tidemark's randomized history checker: scenarios of random transactions under injected faults, each checked
 * for snapshot isolation and lost writes. Exit code 0 when no scenario found an anomaly, 1 when one did.
 */
@Command(name = "chaos", mixinStandardHelpOptions = true,
        description = {"Runs random transactions and fast-path operations from threads and child JVMs against an "
                + "HBase mini-cluster (2 region servers), or with --cluster processes against a cluster of real "
                + "processes (ZooKeeper ensemble, HDFS, HBase, TSOs and clients, each a process of its own), while "
                + "injecting faults, then checks the recorded history: "
                + "every read obeys the snapshot rule, first committer wins, nothing aborted is read, nothing "
                + "committed is lost, scans agree with gets, and what each client was told agrees with the store. "
                + "Prints the seed first, then per scenario: transactions, reads checked, anomalies (the first few "
                + "explained). Exit code 0 when no anomaly, 1 when any. See docs/chaos.md."},
        footer = {"", "Results (report.txt, and per scenario the history files, faults.log and store.image) go to "
                + "--output."})
public final class ChaosCommand implements Callable<Integer> {

    /** Exit code when a scenario found an anomaly, or a run did not do what it is for. */
    public static final int ANOMALIES_EXIT_CODE = 1;

    @Option(names = "--seconds", defaultValue = "60", paramLabel = "<seconds>",
            description = "How long each scenario runs, per commit mode (default: ${DEFAULT-VALUE}); with"
                    + " --until-fulfilled, the longest it may run.")
    private int seconds;

    @Option(names = "--until-fulfilled",
            description = "End each run once it did what its scenario is for: every fault of the scenario injected,"
                    + " then " + RunLength.COMMITS_AFTER_FAULTS + " commits of each kind it mixes in. A run that has"
                    + " not within --seconds fails (exit code 1).")
    private boolean untilFulfilled;

    @Option(names = "--seed", paramLabel = "<n>",
            description = "Seed of the clients' choices and of the fault schedule (default: a random one, printed).")
    private Long seed;

    @Option(names = "--scenario", defaultValue = "all", paramLabel = "<name>",
            completionCandidates = ScenarioNames.class,
            description = "One scenario of ${COMPLETION-CANDIDATES}, or all of them in order (default:"
                    + " ${DEFAULT-VALUE}).")
    private String scenario;

    @Option(names = "--mode", paramLabel = "<mode>", converter = CommitModeConverter.class,
            completionCandidates = CommitModeConverter.Names.class,
            description = "Commit mode: ${COMPLETION-CANDIDATES} (default: each scenario in both).")
    private CommitMode mode;

    @Option(names = "--post-commit", paramLabel = "<sync|async>", converter = PostCommitModeConverter.class,
            defaultValue = "${bundle:default.tidemark.client.post-commit}",
            description = "When every client writes shadow cells and removes its commit record: sync (before commit"
                    + " returns) or async (on background threads), as tidemark.client.post-commit (default:"
                    + " ${DEFAULT-VALUE}).")
    private PostCommitMode postCommit;

    @Option(names = "--cluster", defaultValue = "mini", paramLabel = "<mini|processes>",
            description = "mini: HBase's mini-cluster in this JVM, with the scenarios " + "baseline .. everything; "
                    + "processes: the process cluster (./tidemark cluster), in a network namespace of the run's own "
                    + "where the machine allows it, with the scenarios partitions, pauses, kills and all-faults "
                    + "(default: ${DEFAULT-VALUE}).")
    private String clusterKind;

    @Option(names = "--output", paramLabel = "<folder>",
            description = "Folder for the report and each scenario's history (default: chaos-results/chaos-<time>).")
    private Path output;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        boolean processes = processCluster();
        List<Scenario> scenarios = scenarios(processes);
        List<CommitMode> modes = modes();
        if (seconds < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--seconds must be at least 1, got "
                    + seconds);
        }
        if (output != null && holdsFiles(output)) {
            // An earlier run's cluster data there (HDFS's, ZooKeeper's) would be taken for this run's and refused
            // half-way through the start ("Incompatible clusterIDs"); its results would be mixed with this run's.
            throw new CommandLine.ParameterException(spec.commandLine(), "--output " + output + " is not empty:"
                    + " name a new folder, or remove that one first");
        }
        long runSeed = seed != null ? seed : ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
        Path folder = output != null ? output : Path.of("chaos-results", "chaos-" + LocalDateTime.now().format(
                DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)));
        PrintStream out = System.out;
        ChaosSuite.ClusterStart start = ChaosSuite.MINI_CLUSTER;
        if (processes) {
            ProcessNetwork network = NamespaceNetwork.ofThisProcess();
            if (network == null) {
                String why = NetworkNamespace.unavailable();
                if (why == null) {
                    try {
                        return NamespacedChaos.run(NetworkNamespace.create(), withSeedAndOutput(runSeed, folder));
                    } catch (IOException e) {
                        why = "the network namespace could not be set up: " + e.getMessage();
                    }
                }
                out.println("chaos: no network namespace (" + why + "): the partition faults will NOT RUN");
                network = new HostNetwork(why);
            }
            ProcessNetwork chosen = network;
            start = dir -> ProcessChaosCluster.start(dir, chosen, ProcessScenarios.clientSlots(), out);
        }
        out.println("chaos: seed " + runSeed + " (repeat with --seed " + runSeed + ")");
        out.println("results: " + folder.toAbsolutePath());
        RunLength length = untilFulfilled
                ? RunLength.untilFulfilled(Duration.ofSeconds(seconds), RunLength.COMMITS_AFTER_FAULTS)
                : RunLength.fixed(Duration.ofSeconds(seconds));
        List<ScenarioResult> results = new ChaosSuite(folder, out, start).run(scenarios, modes, runSeed, length,
                postCommit);
        for (ScenarioResult r : results) {
            if (!r.passed()) {
                return ANOMALIES_EXIT_CODE;
            }
        }
        return 0;
    }

    /** Whether {@code folder} exists and is not an empty folder. */
    private static boolean holdsFiles(Path folder) throws IOException {
        if (!Files.exists(folder)) {
            return false;
        }
        if (!Files.isDirectory(folder)) {
            return true;
        }
        try (Stream<Path> entries = Files.list(folder)) {
            return entries.findAny().isPresent();
        }
    }

    private boolean processCluster() {
        return switch (clusterKind) {
            case "mini" -> false;
            case "processes" -> true;
            default -> throw new CommandLine.ParameterException(spec.commandLine(), "--cluster must be mini or"
                    + " processes, got " + clusterKind);
        };
    }

    private List<Scenario> scenarios(boolean processes) {
        if (scenario.equals("all")) {
            return processes ? ProcessScenarios.all() : Scenarios.all();
        }
        try {
            return List.of(processes ? ProcessScenarios.named(scenario) : Scenarios.named(scenario));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /**
     * This command's arguments, with the seed and output folder it settled on: the JVM inside the namespace must run
     * with the seed printed here and write where this one said.
     */
    private List<String> withSeedAndOutput(long runSeed, Path folder) {
        List<String> args = new java.util.ArrayList<>();
        for (CommandLine.Model.OptionSpec option : spec.commandLine().getParseResult().matchedOptions()) {
            if (!option.longestName().equals("--seed") && !option.longestName().equals("--output")) {
                if (option.arity().max() == 0) {
                    args.add(option.longestName());
                }
                for (String value : option.arity().max() == 0 ? List.<String>of() : option.originalStringValues()) {
                    args.add(option.longestName());
                    args.add(value);
                }
            }
        }
        args.addAll(List.of("--seed", Long.toString(runSeed), "--output", folder.toAbsolutePath().toString()));
        return args;
    }

    private List<CommitMode> modes() {
        return mode == null ? List.of(CommitMode.LOW_LATENCY, CommitMode.BATCHED) : List.of(mode);
    }

    /** The scenario names, for --help. */
    static final class ScenarioNames implements Iterable<String> {
        @Override
        public Iterator<String> iterator() {
            List<String> names = new java.util.ArrayList<>(Scenarios.names());
            names.addAll(ProcessScenarios.names());
            return names.iterator();
        }
    }
}
