package io.tidemark.devcli;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.testing.CommandLineRun;
import org.junit.jupiter.api.Test;

import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./tidemark}: bad usage fails fast with one clear line and exit code 2, before anything is started; the
 * production commands are there too.
 */
class DevCommandLineTest {

    private final StringWriter err = new StringWriter();
    private final StringWriter out = new StringWriter();

    private int run(String... args) {
        return CommandLineRun.execute(Main.commandLine(), out, err, args);
    }

    @Test
    void productionCommandsAreThereToo() {
        assertEquals(2, run("tso"));
        assertTrue(err.toString().contains("--hbase-site"), err.toString());
    }

    @Test
    void unknownOptionIsAUsageError() {
        assertEquals(2, run("quickstart", "--bogus"));
        assertEquals(1, err.toString().lines().count(), err.toString());
        assertTrue(err.toString().contains("--bogus"), err.toString());
    }

    @Test
    void unknownCommitModeNamesTheAcceptedModes() {
        assertEquals(2, run("server", "--mode", "fast"));
        assertTrue(err.toString().contains("use low-latency or batched"), err.toString());
    }

    @Test
    void unknownPostCommitModeNamesTheAcceptedOnes() {
        for (String bench : new String[] {"breakdown", "e2e"}) {
            err.getBuffer().setLength(0);
            assertEquals(2, run("bench", bench, "--post-commit", "later"), bench);
            assertEquals(1, err.toString().lines().count(), err.toString());
            assertTrue(err.toString().contains("'later' is not a post-commit mode: use sync or async"),
                    err.toString());
        }
    }

    @Test
    void nonPositiveDurationIsRefused() {
        assertEquals(2, run("quickstart", "--seconds", "0"));
        assertTrue(err.toString().contains("--seconds must be at least 1"), err.toString());
    }

    @Test
    void everyMeasuredBenchmarkRefusesANegativeWarmUpAndAnEmptyWindowNamingTheOption() {
        for (String bench : new String[] {"tso", "e2e", "latency-by-size", "throughput-latency", "breakdown",
                "contention", "fanout", "staleness", "durability", "tpcc"}) {
            err.getBuffer().setLength(0);
            assertEquals(2, run("bench", bench, "--warmup", "-1"), bench);
            assertTrue(err.toString().contains("--warmup must not be negative, got -1"), bench + ": " + err);
            err.getBuffer().setLength(0);
            assertEquals(2, run("bench", bench, "--seconds", "0"), bench);
            assertTrue(err.toString().contains("--seconds must be at least 1, got 0"), bench + ": " + err);
        }
    }

    @Test
    void commandWithoutSubcommandIsAUsageError() {
        assertEquals(2, run());
        assertEquals(2, run("bench"));
    }

    @Test
    void everyCommandHasHelp() {
        for (String[] args : new String[][] {{"--help"}, {"quickstart", "--help"}, {"server", "--help"},
                {"tso", "--help"}, {"table", "--help"}, {"sweep", "--help"}, {"status", "--help"}, {"bench", "--help"},
                {"bench", "tso", "--help"}, {"bench", "e2e", "--help"},
                {"bench", "latency-by-size", "--help"}, {"bench", "throughput-latency", "--help"},
                {"bench", "breakdown", "--help"}, {"bench", "contention", "--help"}, {"bench", "attacks", "--help"},
                {"bench", "tls", "--help"}, {"bench", "tpcc", "--help"}}) {
            assertEquals(0, run(args), String.join(" ", args));
        }
        assertTrue(out.toString().contains("Usage: tidemark bench e2e"), out.toString());
        assertTrue(out.toString().contains("Usage: tidemark bench contention"), out.toString());
        assertTrue(out.toString().contains("(50% reads, 50% updates"), out.toString());
        assertFalse(out.toString().contains("%%"), "a help text was not formatted: " + out);
        assertFalse(out.toString().contains("${"), "a setting's default was not filled in: " + out);
    }

    @Test
    void optionDefaultsAreTheDefaultsOfTheirSettings() {
        assertEquals(0, run("server", "--help"));
        assertEquals(0, run("bench", "e2e", "--help"));
        assertEquals(0, run("bench", "attacks", "--help"));
        // Without white space: help wraps its lines wherever a word or a key ends.
        String help = out.toString().replaceAll("\\s+", "");
        assertTrue(help.contains("0picksafreeone(default:" + TidemarkConfig.TSO_PORT.defaultValue() + ")"), help);
        assertTrue(help.contains("Default:" + TidemarkConfig.CLIENT_POST_COMMIT.defaultValue() + "."), help);
        assertTrue(help.contains("(default" + TidemarkConfig.TSO_REPLY_STALL_TIMEOUT_MS.defaultValue() + "ms)"), help);
        assertTrue(help.contains("(default:" + (TidemarkConfig.TSO_MAX_CONNECTIONS.defaultValue() + 1000)), help);
    }

    @Test
    void serverListensOnLoopbackUnlessToldOtherwise() {
        assertEquals(0, run("server", "--help"));
        assertTrue(out.toString().replaceAll("\\s+", " ").contains("(default: 127.0.0.1, this machine only"),
                out.toString());
    }

    @Test
    void latencyBySizeHelpSaysWhatTheFastPathModeMeasures() {
        assertEquals(0, run("bench", "latency-by-size", "--help"));
        assertTrue(out.toString().replaceAll("\\s+", " ").contains("only its size-1 rows measure the fast path"),
                out.toString());
    }

    @Test
    void endToEndRefusesOmidSideBySide() {
        assertEquals(2, run("bench", "e2e", "--side-by-side", "--omid"));
        assertTrue(err.toString().contains("--side-by-side and --omid do not go together"), err.toString());
    }

    @Test
    void breakdownRefusesTheFastPathMode() {
        assertEquals(2, run("bench", "breakdown", "--modes", "fastpath"));
        assertTrue(err.toString().contains("use generic, batched, raw or raw-after-begin"), err.toString());
    }

    @Test
    void unknownBenchmarkModeNamesTheAcceptedModes() {
        assertEquals(2, run("bench", "latency-by-size", "--modes", "generic,turbo"));
        assertTrue(err.toString().contains("use generic, batched, fastpath, raw or raw-after-begin"), err.toString());
    }

    @Test
    void throughputLatencyRefusesRawMode() {
        assertEquals(2, run("bench", "throughput-latency", "--modes", "raw"));
        assertTrue(err.toString().contains("modes must be transactional"), err.toString());
    }

    @Test
    void loadStepsMustBeFractionsOfSaturation() {
        assertEquals(2, run("bench", "throughput-latency", "--load-steps", "0.5,1.5"));
        assertTrue(err.toString().contains("load fractions must be between 0 and 1"), err.toString());
    }

    @Test
    void negativeSweepClientCountIsRefused() {
        assertEquals(2, run("bench", "tso", "--sweep-clients", "1,-2"));
        assertTrue(err.toString().contains("--sweep-clients"), err.toString());
    }

    @Test
    void fanoutRefusesAFanOutBelowOne() {
        assertEquals(2, run("bench", "fanout", "--fanouts", "1,0"));
        assertTrue(err.toString().contains("fan-outs must be at least 1"), err.toString());
    }

    @Test
    void chaosRefusesAnUnknownScenarioNamingTheScenarios() {
        assertEquals(2, run("chaos", "--scenario", "bogus"));
        assertTrue(err.toString().contains("no scenario 'bogus'; there are: baseline"), err.toString());
    }

    @Test
    void chaosRefusesAnUnknownCommitMode() {
        assertEquals(2, run("chaos", "--mode", "fast"));
        assertTrue(err.toString().contains("use low-latency or batched"), err.toString());
    }

    @Test
    void chaosRefusesANonPositiveDuration() {
        assertEquals(2, run("chaos", "--seconds", "0"));
        assertTrue(err.toString().contains("--seconds must be at least 1"), err.toString());
    }

    @Test
    void chaosRefusesAnUnknownClusterKind() {
        assertEquals(2, run("chaos", "--cluster", "docker"));
        assertTrue(err.toString().contains("--cluster must be mini or processes, got docker"), err.toString());
    }

    @Test
    void chaosOnProcessesNamesTheProcessClustersScenarios() {
        assertEquals(2, run("chaos", "--cluster", "processes", "--scenario", "baseline"));
        assertTrue(err.toString().contains("no scenario 'baseline' on the process cluster; there are: partitions,"
                + " pauses, kills, all-faults, every-fault"), err.toString());
    }

    @Test
    void clusterCommandsWithoutAClusterSayWhereTheyLooked(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        for (String command : new String[] {"status", "down"}) {
            err.getBuffer().setLength(0);
            assertEquals(2, run("cluster", command, "--dir", dir.toString()), command);
            assertEquals(1, err.toString().lines().count(), err.toString());
            assertTrue(err.toString().contains("no cluster in " + dir.toAbsolutePath()), err.toString());
        }
        err.getBuffer().setLength(0);
        assertEquals(2, run("cluster"));
        assertTrue(err.toString().contains("missing command: use up, down or status"), err.toString());
    }

    @Test
    void tpccRefusesTheFastPathModeSayingWhy() {
        assertEquals(2, run("bench", "tpcc", "--modes", "generic,fastpath"));
        assertTrue(err.toString().contains("mode fastpath is refused"), err.toString());
        assertTrue(err.toString().contains("consistency condition 2"), err.toString());
    }

    @Test
    void tpccRefusesBadWarehousesScaleThreadsAndMix() {
        assertEquals(2, run("bench", "tpcc", "--warehouses", "0"));
        assertTrue(err.toString().contains("--warehouses must be at least 1"), err.toString());
        assertEquals(2, run("bench", "tpcc", "--scale", "1.5"));
        assertTrue(err.toString().contains("--scale must be a fraction in (0, 1]"), err.toString());
        assertEquals(2, run("bench", "tpcc", "--threads", "1,0"));
        assertTrue(err.toString().contains("--threads must be at least 1 each"), err.toString());
        assertEquals(2, run("bench", "tpcc", "--mix", "delivery"));
        assertTrue(err.toString().contains("use new-order or new-order+payment"), err.toString());
        assertEquals(2, run("bench", "tpcc", "--mode", "raw"));
        assertTrue(err.toString().contains("mode raw is refused"), err.toString());
    }
}
