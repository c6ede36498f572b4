package io.tidemark.chaos.run;

import io.tidemark.chaos.cluster.ChaosCluster;
import io.tidemark.chaos.scenario.Scenario;
import io.tidemark.client.PostCommitMode;
import io.tidemark.protocol.CommitMode;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Runs scenarios one after the other on one mini-cluster (started here, removed at the end), printing each
 * scenario's report as it finishes and appending it to {@code report.txt} in the output directory.
 */
public final class ChaosSuite {

    /** How many anomalies each scenario's printed report explains. */
    public static final int EXPLAINED = 5;

    private final Path output;
    private final PrintStream out;

    public ChaosSuite(Path output, PrintStream out) {
        this.output = output;
        this.out = out;
    }

    /** @param postCommit when the clients do their post-commit, in every scenario and mode */
    public List<ScenarioResult> run(List<Scenario> scenarios, List<CommitMode> modes, long seed, Duration each,
                                    PostCommitMode postCommit) throws Exception {
        Files.createDirectories(output);
        Path report = output.resolve("report.txt");
        Files.writeString(report, "seed " + seed + System.lineSeparator(), StandardCharsets.UTF_8);
        Path hbaseData = output.resolve("hbase");
        List<ScenarioResult> results = new ArrayList<>();
        out.println("Starting an HBase mini-cluster with " + ChaosCluster.REGION_SERVERS + " region servers...");
        try (ChaosCluster cluster = ChaosCluster.start(hbaseData)) {
            for (Scenario scenario : scenarios) {
                for (CommitMode mode : modes) {
                    out.printf("Running scenario %s (%s) for %d s: %s%n", scenario.name(), mode.configName(),
                            each.toSeconds(), scenario.description());
                    Path directory = output.resolve(scenario.name() + "-" + mode.configName());
                    ScenarioResult result = new ChaosRun(cluster, scenario, mode,
                            ChaosRun.seedOf(seed, scenario, mode), each, directory, postCommit).run();
                    results.add(result);
                    String text = ChaosReport.of(result, EXPLAINED);
                    out.print(text);
                    out.flush();
                    Files.writeString(report, text, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
                }
            }
        } finally {
            deleteQuietly(hbaseData);
        }
        String summary = ChaosReport.summary(results);
        Files.writeString(report, summary, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        out.print(summary);
        return results;
    }

    private static void deleteQuietly(Path directory) {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // The mini-cluster's files are only disk space; the histories next to them are what matters.
        }
    }
}
