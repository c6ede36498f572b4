package io.tidemark.chaos.run;

import io.tidemark.chaos.cluster.ChaosCluster;
import io.tidemark.chaos.cluster.ChaosHBase;
import io.tidemark.chaos.fault.FaultLanes;
import io.tidemark.chaos.scenario.Scenario;
import io.tidemark.client.PostCommitMode;
import io.tidemark.protocol.CommitMode;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Runs scenarios one after the other on one cluster (started here, removed at the end: its data too when no run
 * found an anomaly; its logs stay), printing the cluster, each scenario's fault schedule (for lanes) and report as it
 * finishes, and appending them to {@code report.txt} in the output directory.
 */
public final class ChaosSuite {

    /** How many anomalies each scenario's printed report explains. */
    public static final int EXPLAINED = 5;

    /** Starts the cluster a suite runs on, with its files in {@code dataDirectory}. */
    @FunctionalInterface
    public interface ClusterStart {
        ChaosHBase start(Path dataDirectory) throws Exception;
    }

    /** HBase's mini-cluster in this JVM. */
    public static final ClusterStart MINI_CLUSTER = ChaosCluster::start;

    private final Path output;
    private final PrintStream out;
    private final ClusterStart clusterStart;

    public ChaosSuite(Path output, PrintStream out, ClusterStart clusterStart) {
        this.output = output;
        this.out = out;
        this.clusterStart = clusterStart;
    }

    /** @param postCommit when the clients do their post-commit, in every scenario and mode */
    public List<ScenarioResult> run(List<Scenario> scenarios, List<CommitMode> modes, long seed, RunLength each,
                                    PostCommitMode postCommit) throws Exception {
        Files.createDirectories(output);
        Path report = output.resolve("report.txt");
        Files.writeString(report, "seed " + seed + System.lineSeparator(), StandardCharsets.UTF_8);
        Path clusterData = output.resolve("cluster");
        List<ScenarioResult> results = new ArrayList<>();
        out.println("Starting the cluster...");
        boolean clean = true;
        try (ResidentMemory memory = ResidentMemory.sample(); ChaosHBase cluster = clusterStart.start(clusterData)) {
            print(cluster.describe(), report);
            for (Scenario scenario : scenarios) {
                for (CommitMode mode : modes) {
                    out.printf("Running scenario %s (%s) %s %d s: %s%n", scenario.name(), mode.configName(),
                            each.untilFulfilled() ? "until its faults and commits after them, at most" : "for",
                            each.limit().toSeconds(), scenario.description());
                    long runSeed = ChaosRun.seedOf(seed, scenario, mode);
                    if (!scenario.lanes().isEmpty()) {
                        print("fault schedule of " + scenario.name() + " (" + mode.configName() + "), seed "
                                + runSeed + ":" + System.lineSeparator() + FaultLanes.plan(ChaosRun.lanesThatRun(
                                scenario, cluster.partitionsUnavailable()), ChaosRun.faultSeed(runSeed)), report);
                    }
                    Path directory = output.resolve(scenario.name() + "-" + mode.configName());
                    ScenarioResult result;
                    try {
                        result = new ChaosRun(cluster, scenario, mode, runSeed, each, directory, postCommit).run();
                    } catch (Exception | Error e) {
                        // Said here too: a run inside a network namespace has no other record of why it ended.
                        clean = false;
                        print("scenario " + scenario.name() + " (" + mode.configName() + ") did not finish: "
                                + stackTrace(e), report);
                        throw e;
                    }
                    results.add(result);
                    clean &= result.passed();
                    print(ChaosReport.of(result, EXPLAINED), report);
                }
            }
            print(String.format(Locale.ROOT, "peak resident memory of this JVM and every process it started: %.2f"
                    + " GiB%n", memory.peakKb() / 1024.0 / 1024.0), report);
        } finally {
            if (clean) {
                deleteDataQuietly(clusterData);
            } else {
                out.println("The cluster's files and logs are kept in " + clusterData);
            }
        }
        String summary = ChaosReport.summary(results);
        Files.writeString(report, summary, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        out.print(summary);
        return results;
    }

    private static String stackTrace(Throwable e) {
        StringWriter trace = new StringWriter();
        e.printStackTrace(new PrintWriter(trace));
        return trace.toString();
    }

    private void print(String text, Path report) throws IOException {
        out.print(text);
        out.flush();
        Files.writeString(report, text, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }

    /** Deletes the cluster's files but its logs (a process cluster's {@code logs} folder). */
    private static void deleteDataQuietly(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        Path logs = directory.resolve("logs");
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.filter(p -> !p.startsWith(logs)).sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // The cluster's files are only disk space; the histories next to them are what matters.
        }
    }
}
