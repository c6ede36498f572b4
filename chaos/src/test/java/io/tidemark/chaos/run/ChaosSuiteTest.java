package io.tidemark.chaos.run;

import io.tidemark.chaos.cluster.ChaosHBase;
import io.tidemark.chaos.scenario.Scenarios;
import io.tidemark.client.PostCommitMode;
import io.tidemark.protocol.CommitMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A scenario run that ends with an exception says why in {@code report.txt}: a run inside a network namespace has its
 * standard error on the parent's, which a build's test runner does not keep, and its exit code alone said nothing.
 */
@Timeout(60)
class ChaosSuiteTest {

    private static final String FAILURE = "injected: this cluster serves nothing";

    @Test
    void aRunThatFailsWritesWhyIntoTheReportAndKeepsTheClustersFiles(@TempDir Path output) throws Exception {
        ChaosHBase failing = (ChaosHBase) Proxy.newProxyInstance(ChaosHBase.class.getClassLoader(),
                new Class<?>[] {ChaosHBase.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "describe" -> "a cluster that serves nothing" + System.lineSeparator();
                    case "partitionsUnavailable" -> "none here";
                    case "close" -> null;
                    default -> throw new IllegalStateException(FAILURE);
                });
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        ChaosSuite suite = new ChaosSuite(output, new PrintStream(printed, true, StandardCharsets.UTF_8),
                dir -> failing);

        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> suite.run(
                List.of(Scenarios.named("baseline")), List.of(CommitMode.LOW_LATENCY), 1,
                RunLength.fixed(Duration.ofSeconds(1)), PostCommitMode.ASYNC));

        assertEquals(FAILURE, thrown.getMessage());
        String report = Files.readString(output.resolve("report.txt"), StandardCharsets.UTF_8);
        assertTrue(report.contains("scenario baseline (low-latency) did not finish: "), report);
        assertTrue(report.contains(FAILURE), report);
        assertTrue(printed.toString(StandardCharsets.UTF_8).contains("The cluster's files and logs are kept in"),
                printed.toString(StandardCharsets.UTF_8));
    }
}
