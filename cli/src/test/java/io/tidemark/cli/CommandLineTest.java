package io.tidemark.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad usage fails fast with one clear line and exit code 2, before anything is started. */
class CommandLineTest {

    private final StringWriter err = new StringWriter();
    private final StringWriter out = new StringWriter();

    private int run(String... args) {
        CommandLine commandLine = Main.commandLine();
        commandLine.setErr(new PrintWriter(err, true));
        commandLine.setOut(new PrintWriter(out, true));
        return commandLine.execute(args);
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
    void nonPositiveDurationIsRefused() {
        assertEquals(2, run("quickstart", "--seconds", "0"));
        assertTrue(err.toString().contains("--seconds must be at least 1"), err.toString());
    }

    @Test
    void tsoNeedsAnHbaseSiteFile() {
        assertEquals(2, run("tso"));
        assertTrue(err.toString().contains("--hbase-site"), err.toString());
    }

    @Test
    void missingHbaseSiteFileIsNamed() {
        assertEquals(2, run("tso", "--hbase-site", "/no/such/hbase-site.xml"));
        assertTrue(err.toString().contains("/no/such/hbase-site.xml: no such file"), err.toString());
    }

    @Test
    void commandWithoutSubcommandIsAUsageError() {
        assertEquals(2, run());
        assertEquals(2, run("bench"));
    }

    @Test
    void everyCommandHasHelp() {
        for (String[] args : new String[][] {{"--help"}, {"quickstart", "--help"}, {"server", "--help"},
                {"tso", "--help"}, {"bench", "--help"}, {"bench", "tso", "--help"}, {"bench", "e2e", "--help"}}) {
            assertEquals(0, run(args), String.join(" ", args));
        }
        assertTrue(out.toString().contains("Usage: tidemark bench e2e"), out.toString());
    }
}
