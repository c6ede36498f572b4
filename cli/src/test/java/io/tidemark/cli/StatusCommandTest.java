package io.tidemark.cli;

import io.tidemark.committable.InMemoryCommitTable;
import io.tidemark.config.HostAndPort;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.testing.CommandLineRun;
import io.tidemark.tso.TsoServer;
import io.tidemark.tso.cluster.InMemoryClusterSettingsStore;
import io.tidemark.tso.lease.InMemoryLeases;
import io.tidemark.tso.timestamp.InMemoryTimestampStorage;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.StringWriter;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 11: {@code tidemark status --tso host:port} asks a real TSO (in this JVM, on in-memory storage) over its HTTP
 * port; the exit code is 0 exactly when the TSO is healthy, and a TSO that is down gets one clear line.
 */
class StatusCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    /** The TSOs of one cluster: they share timestamp bound, commit table, settings and lease. */
    private final InMemoryTimestampStorage timestamps = new InMemoryTimestampStorage();
    private final InMemoryCommitTable commitTable = new InMemoryCommitTable();
    private final InMemoryClusterSettingsStore settings = new InMemoryClusterSettingsStore();
    private final InMemoryLeases leases = new InMemoryLeases();

    @Test
    void activeTsoIsHealthyAndShowsRoleEpochModeAndConflictMap() throws IOException {
        try (TsoServer tso = tso()) {
            tso.start();
            assertEquals(0, status("--tso", tso.httpAddress().toString()), err.toString());
            String shown = out.toString();
            assertTrue(shown.startsWith("TSO " + tso.advertisedAddress() + ": active (healthy)"), shown);
            assertTrue(shown.matches("(?s).*epoch +" + tso.epoch() + "\n.*"), shown);
            assertTrue(shown.matches("(?s).*commit mode +low-latency\n.*"), shown);
            assertTrue(shown.matches("(?s).*low watermark +0\n.*"), shown);
            assertTrue(shown.matches("(?s).*conflict-map fill +0\\.00 %\n.*"), shown);
            assertTrue(shown.matches("(?s).*connections +0\n.*"), shown);
            assertTrue(shown.matches("(?s).*uptime +\\d+s\n.*"), shown);
            assertTrue(shown.matches("(?s).*last error +none\n.*"), shown);
        }
    }

    @Test
    void standbyIsHealthyAndNamesTheActiveTso() throws Exception {
        try (TsoServer active = tso(); TsoServer standby = tso()) {
            active.start();
            standby.startCompeting();
            awaitStandingBy(standby);
            assertEquals(0, status("--tso", standby.httpAddress().toString()), err.toString());
            assertTrue(out.toString().contains(": standby (healthy)"), out.toString());
            assertTrue(out.toString().matches("(?s).*active TSO +" + active.advertisedAddress() + "\n.*"),
                    out.toString());
        }
    }

    @Test
    void deposedTsoIsNotHealthyAndSaysWhy() throws Exception {
        try (TsoServer tso = tso()) {
            tso.start();
            leases.revokeHolder("the lease was taken over by TSO intruder-7");
            tso.stopped().get();
            assertEquals(StatusCommand.UNHEALTHY_EXIT_CODE, status("--tso", tso.httpAddress().toString()));
            assertTrue(out.toString().contains(": stopped (NOT healthy)"), out.toString());
            assertTrue(out.toString().matches("(?s).*stopped because +.*intruder-7.*"), out.toString());
        }
    }

    @Test
    void tsoThatIsDownFailsWithOneClearLine() throws IOException {
        HostAndPort endpoint;
        try (TsoServer tso = tso()) {
            tso.start();
            endpoint = tso.httpAddress();
        }
        assertEquals(StatusCommand.UNHEALTHY_EXIT_CODE, status("--tso", endpoint.toString()));
        assertEquals("tidemark status: no TSO answers at " + endpoint + " (connection refused): the TSO is down, or"
                + " its HTTP endpoint listens elsewhere (" + TidemarkConfig.TSO_HTTP_PORT + ")\n", err.toString());
        assertEquals("", out.toString());
    }

    @Test
    void theTsoClientPortIsNotMistakenForTheHttpPort() throws IOException {
        try (TsoServer tso = tso()) {
            tso.start();
            assertEquals(StatusCommand.UNHEALTHY_EXIT_CODE, status("--tso", "127.0.0.1:" + tso.port()));
            assertTrue(err.toString().contains("does not answer HTTP") && err.toString().contains(
                    "use its HTTP port instead"), err.toString());
        }
    }

    @Test
    void theTargetIsEitherATsoOrACluster() {
        assertEquals(UsageErrorHandler.USAGE_EXIT_CODE, status());
        assertEquals(UsageErrorHandler.USAGE_EXIT_CODE, status("--tso", "no-port"));
        assertTrue(err.toString().contains("expected host:port"), err.toString());
        assertEquals(UsageErrorHandler.USAGE_EXIT_CODE, status("--tso", "h:1", "--hbase-site", "/no/such.xml"));
        assertEquals(UsageErrorHandler.USAGE_EXIT_CODE, status("--hbase-site", "/no/such/hbase-site.xml"));
        assertTrue(err.toString().contains("/no/such/hbase-site.xml: no such file"), err.toString());
    }

    @Test
    void durationsReadLikeAClock() {
        assertEquals("0s", StatusCommand.duration(999));
        assertEquals("1m 0s", StatusCommand.duration(60_000));
        assertEquals("2d 0h 0m 5s", StatusCommand.duration(2 * 86_400_000L + 5_000));
    }

    private int status(String... args) {
        String[] command = new String[args.length + 1];
        command[0] = "status";
        System.arraycopy(args, 0, command, 1, args.length);
        return CommandLineRun.execute(Main.commandLine(), out, err, command);
    }

    private TsoServer tso() throws IOException {
        TidemarkConfig config = new TidemarkConfig(new Configuration(false));
        config.set(TidemarkConfig.TSO_HOST, "127.0.0.1");
        config.set(TidemarkConfig.TSO_PORT, "0");
        config.set(TidemarkConfig.TSO_HTTP_PORT, "0");
        config.set(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES, "4096");
        return TsoServer.builder().config(config).timestampStorage(timestamps).commitTable(commitTable)
                .clusterSettingsStore(settings).leases(leases::election).build();
    }

    private static void awaitStandingBy(TsoServer standby) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!standby.status().healthy()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the second TSO never stood by: " + standby.status());
            }
            Thread.sleep(20);
        }
    }
}
