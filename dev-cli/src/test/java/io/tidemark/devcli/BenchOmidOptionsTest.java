package io.tidemark.devcli;

import io.tidemark.bench.e2e.E2eOptions;
import io.tidemark.bench.tso.TsoBenchmarkOptions;
import io.tidemark.client.PostCommitMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 35: {@code bench e2e --size --regions --omid} and {@code bench tso --omid} parse into the benchmarks'
 * options, and bad values are one clear line and exit code 2 before anything starts. No HBase is started here.
 */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class BenchOmidOptionsTest {

    private final DevCommandLine cli = new DevCommandLine();

    /** The command object of {@code bench <name>} after parsing {@code ./tidemark bench <name> <args>}. */
    private static <T> T parsed(String name, String... args) {
        String[] line = new String[args.length + 2];
        line[0] = "bench";
        line[1] = name;
        System.arraycopy(args, 0, line, 2, args.length);
        CommandLine.ParseResult result = Main.commandLine().parseArgs(line);
        return result.subcommand().subcommand().commandSpec().commandLine().getCommand();
    }

    @Test
    void endToEndOptionsOfTheIssuesTableReachTheBenchmark() {
        BenchEndToEndCommand command = parsed("e2e", "--omid", "--size", "5", "--regions", "4", "--rows", "100000",
                "--value-bytes", "1024", "--post-commit", "sync", "--storage", "hdfs");

        E2eOptions options = command.options();

        assertTrue(options.omid());
        assertEquals(5, options.size());
        assertEquals(4, options.regions());
        assertEquals(100_000, options.rows());
        assertEquals(1024, options.valueBytes());
        assertEquals(PostCommitMode.SYNC, options.postCommit());
    }

    @Test
    void endToEndDefaultsAreSingleOperationTransactionsOnOneRegionWithoutOmid() {
        E2eOptions options = this.<BenchEndToEndCommand>parsed("e2e").options();

        assertFalse(options.omid());
        assertEquals(1, options.size());
        assertEquals(1, options.regions());
        assertEquals(0.5, options.writeFraction());
        assertFalse(options.adjacentKeys());
    }

    /** Issue 35's 5-row single-region write transaction against a raw multi-put of the same rows. */
    @Test
    void endToEndWritesOnlyOnAdjacentKeysReachTheBenchmark() {
        E2eOptions options = this.<BenchEndToEndCommand>parsed("e2e", "--size", "5", "--writes", "1",
                "--adjacent-keys").options();

        assertEquals(1.0, options.writeFraction());
        assertTrue(options.adjacentKeys());
    }

    @Test
    void tsoOmidOptionReachesTheBenchmark() {
        TsoBenchmarkOptions options = this.<BenchTsoCommand>parsed("tso", "--omid", "--sweep-clients", "0")
                .options();

        assertTrue(options.omid());
        assertTrue(options.sweepClients().isEmpty());
        assertFalse(this.<BenchTsoCommand>parsed("tso").options().omid());
    }

    @Test
    void badSizesAndRegionCountsAreRefused() {
        cli.assertOneLineUsageError("--size must be at least 1", "bench", "e2e", "--size", "0");
        cli.assertOneLineUsageError("--regions must be from 1 to --rows (4), got 5", "bench", "e2e", "--rows", "4",
                "--regions", "5");
        cli.assertOneLineUsageError("--regions must be from 1 to --rows (10000), got 0", "bench", "e2e", "--regions",
                "0");
        cli.assertOneLineUsageError("--writes must be a fraction from 0 to 1, got 1.5", "bench", "e2e", "--writes",
                "1.5");
        cli.assertOneLineUsageError("--adjacent-keys needs --rows (4) of at least --size (5)", "bench", "e2e",
                "--rows", "4", "--size", "5", "--adjacent-keys");
    }

    @Test
    void omidOnAnExistingClusterIsRefused(@TempDir Path folder) throws Exception {
        Path site = Files.writeString(folder.resolve("hbase-site.xml"), "<configuration/>");
        cli.assertOneLineUsageError("--omid starts Apache Omid's TSO", "bench", "e2e", "--omid", "--hbase-site",
                site.toString());
    }

    @Test
    void helpDescribesTheNewOptions() {
        assertEquals(0, cli.run("bench", "e2e", "--help"));
        assertEquals(0, cli.run("bench", "tso", "--help"));
        String help = cli.out.toString();
        for (String option : new String[] {"--size", "--regions", "--omid"}) {
            assertTrue(help.contains(option), option + " missing from: " + help);
        }
        assertTrue(help.replaceAll("\\s+", " ").contains("Apache Omid"), help);
    }
}
