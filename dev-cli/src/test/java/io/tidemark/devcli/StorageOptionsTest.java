package io.tidemark.devcli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 14: --storage, --hbase-site and --tso (and throughput-latency's --background) are checked before anything
 * starts; a bad value or combination is one clear line and exit code 2. No HBase is started by these tests.
 */
class StorageOptionsTest {

    private final DevCommandLine cli = new DevCommandLine();

    @Test
    void unknownStorageIsRefusedNamingTheChoicesOnEveryCommandThatHasIt() {
        for (String[] command : new String[][] {{"server"}, {"quickstart"}, {"bench", "e2e"}, {"bench", "breakdown"},
                {"bench", "latency-by-size"}, {"bench", "throughput-latency"}, {"bench", "tso"},
                {"bench", "contention"}, {"bench", "failover"}, {"bench", "fanout"}}) {
            String[] args = new String[command.length + 2];
            System.arraycopy(command, 0, args, 0, command.length);
            args[command.length] = "--storage";
            args[command.length + 1] = "nfs";
            cli.assertOneLineUsageError("'nfs' is not a storage: use local or hdfs", args);
        }
    }

    @Test
    void everyCommandOnAnEmbeddedHBaseDocumentsStorage() {
        for (String[] args : new String[][] {{"server", "--help"}, {"quickstart", "--help"},
                {"bench", "e2e", "--help"}, {"bench", "breakdown", "--help"}, {"bench", "latency-by-size", "--help"},
                {"bench", "throughput-latency", "--help"}, {"bench", "tso", "--help"},
                {"bench", "contention", "--help"}, {"bench", "failover", "--help"}, {"bench", "fanout", "--help"}}) {
            cli.out.getBuffer().setLength(0);
            assertEquals(0, cli.run(args), String.join(" ", args));
            assertTrue(cli.out.toString().contains("--storage=<storage>"), String.join(" ", args) + ": " + cli.out);
        }
    }

    @Test
    void tsoAddressWithoutAnExistingClusterIsRefused() {
        cli.assertOneLineUsageError("--tso needs --hbase-site", "bench", "e2e", "--tso", "localhost:54758");
    }

    @Test
    void storageAndAnExistingClusterTogetherAreRefused(@TempDir Path folder) throws Exception {
        Path site = Files.writeString(folder.resolve("hbase-site.xml"), "<configuration/>");
        cli.assertOneLineUsageError("give one of the two", "bench", "breakdown", "--storage", "hdfs", "--hbase-site",
                site.toString());
    }

    @Test
    void missingHbaseSiteFileIsRefused(@TempDir Path folder) {
        cli.assertOneLineUsageError("no such readable file", "bench", "latency-by-size", "--hbase-site",
                folder.resolve("absent.xml").toString());
    }

    @Test
    void malformedTsoAddressIsRefused(@TempDir Path folder) throws Exception {
        Path site = Files.writeString(folder.resolve("hbase-site.xml"), "<configuration/>");
        cli.assertOneLineUsageError("expected host:port", "bench", "contention", "--hbase-site", site.toString(),
                "--tso", "localhost");
    }

    @Test
    void tsoBenchmarkRefusesAnExistingClusterBecauseItStartsItsOwnTsos(@TempDir Path folder) throws Exception {
        Path site = Files.writeString(folder.resolve("hbase-site.xml"), "<configuration/>");
        cli.assertOneLineUsageError("use --storage local|hdfs instead of --hbase-site", "bench", "tso", "--hbase-site",
                site.toString(), "--tso", "localhost:1");
    }

    @Test
    void unknownBackgroundLoadIsRefusedNamingTheChoices() {
        cli.assertOneLineUsageError("use with-commit-records or tso-only", "bench", "throughput-latency",
                "--background", "some");
    }

    @Test
    void throughputLatencyBackgroundWritesCommitRecordsByDefault() {
        assertEquals(0, cli.run("bench", "throughput-latency", "--help"));
        assertTrue(cli.out.toString().replaceAll("\\s+", " ").contains("(default: with-commit-records)"), cli.out.toString());
    }
}
