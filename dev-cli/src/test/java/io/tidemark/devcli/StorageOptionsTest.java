package io.tidemark.devcli;

import io.tidemark.testing.CommandLineRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 14: --storage, --hbase-site and --tso (and throughput-latency's --background) are checked before anything
 * starts; a bad value or combination is one clear line and exit code 2. No HBase is started by these tests.
 */
class StorageOptionsTest {

    private final StringWriter err = new StringWriter();
    private final StringWriter out = new StringWriter();

    private int run(String... args) {
        return CommandLineRun.execute(Main.commandLine(), out, err, args);
    }

    private void assertOneLineUsageError(String expected, String... args) {
        assertEquals(2, run(args), String.join(" ", args) + ": " + err);
        assertEquals(1, err.toString().lines().count(), err.toString());
        assertTrue(err.toString().contains(expected), err.toString());
        err.getBuffer().setLength(0);
    }

    @Test
    void unknownStorageIsRefusedNamingTheChoicesOnEveryCommandThatHasIt() {
        for (String[] command : new String[][] {{"server"}, {"quickstart"}, {"bench", "e2e"}, {"bench", "breakdown"},
                {"bench", "latency-by-size"}, {"bench", "throughput-latency"}, {"bench", "tso"},
                {"bench", "contention"}, {"bench", "failover"}, {"bench", "fanout"}}) {
            String[] args = new String[command.length + 2];
            System.arraycopy(command, 0, args, 0, command.length);
            args[command.length] = "--storage";
            args[command.length + 1] = "nfs";
            assertOneLineUsageError("'nfs' is not a storage: use local or hdfs", args);
        }
    }

    @Test
    void everyCommandOnAnEmbeddedHBaseDocumentsStorage() {
        for (String[] args : new String[][] {{"server", "--help"}, {"quickstart", "--help"},
                {"bench", "e2e", "--help"}, {"bench", "breakdown", "--help"}, {"bench", "latency-by-size", "--help"},
                {"bench", "throughput-latency", "--help"}, {"bench", "tso", "--help"},
                {"bench", "contention", "--help"}, {"bench", "failover", "--help"}, {"bench", "fanout", "--help"}}) {
            out.getBuffer().setLength(0);
            assertEquals(0, run(args), String.join(" ", args));
            assertTrue(out.toString().contains("--storage=<storage>"), String.join(" ", args) + ": " + out);
        }
    }

    @Test
    void tsoAddressWithoutAnExistingClusterIsRefused() {
        assertOneLineUsageError("--tso needs --hbase-site", "bench", "e2e", "--tso", "localhost:54758");
    }

    @Test
    void storageAndAnExistingClusterTogetherAreRefused(@TempDir Path folder) throws Exception {
        Path site = Files.writeString(folder.resolve("hbase-site.xml"), "<configuration/>");
        assertOneLineUsageError("give one of the two", "bench", "breakdown", "--storage", "hdfs", "--hbase-site",
                site.toString());
    }

    @Test
    void missingHbaseSiteFileIsRefused(@TempDir Path folder) {
        assertOneLineUsageError("no such readable file", "bench", "latency-by-size", "--hbase-site",
                folder.resolve("absent.xml").toString());
    }

    @Test
    void malformedTsoAddressIsRefused(@TempDir Path folder) throws Exception {
        Path site = Files.writeString(folder.resolve("hbase-site.xml"), "<configuration/>");
        assertOneLineUsageError("expected host:port", "bench", "contention", "--hbase-site", site.toString(),
                "--tso", "localhost");
    }

    @Test
    void tsoBenchmarkRefusesAnExistingClusterBecauseItStartsItsOwnTsos(@TempDir Path folder) throws Exception {
        Path site = Files.writeString(folder.resolve("hbase-site.xml"), "<configuration/>");
        assertOneLineUsageError("use --storage local|hdfs instead of --hbase-site", "bench", "tso", "--hbase-site",
                site.toString(), "--tso", "localhost:1");
    }

    @Test
    void unknownBackgroundLoadIsRefusedNamingTheChoices() {
        assertOneLineUsageError("use with-commit-records or tso-only", "bench", "throughput-latency",
                "--background", "some");
    }

    @Test
    void throughputLatencyBackgroundWritesCommitRecordsByDefault() {
        assertEquals(0, run("bench", "throughput-latency", "--help"));
        assertTrue(out.toString().replaceAll("\\s+", " ").contains("(default: with-commit-records)"), out.toString());
    }
}
