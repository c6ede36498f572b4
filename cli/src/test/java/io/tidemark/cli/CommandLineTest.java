package io.tidemark.cli;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.testing.CommandLineRun;
import io.tidemark.version.TidemarkVersion;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The production commands: bad usage fails fast with one clear line and exit code 2, before anything is started.
 */
class CommandLineTest {

    private final StringWriter err = new StringWriter();
    private final StringWriter out = new StringWriter();

    private int run(String... args) {
        return CommandLineRun.execute(Main.commandLine(), out, err, args);
    }

    /** A command that dies with an Error, as a mini-cluster start did on a classpath without JUnit 4. */
    @picocli.CommandLine.Command(name = "broken")
    static final class BrokenCommand implements Runnable {
        @Override
        public void run() {
            throw new NoClassDefFoundError("org/junit/Assert");
        }
    }

    @Test
    void aCommandThatDiesWithAnErrorExitsWithOneAndSaysWhy() {
        picocli.CommandLine commandLine = Main.configured(new BrokenCommand());
        commandLine.setErr(new PrintWriter(err, true));
        assertEquals(1, Main.execute(commandLine, new String[0]));
        assertEquals("broken: org/junit/Assert", err.toString().trim());
    }

    @Test
    void commandWithoutSubcommandIsAUsageError() {
        assertEquals(2, run());
        assertTrue(err.toString().contains("use tso, table, sweep, status or version"), err.toString());
    }

    @Test
    void everyCommandHasHelp() {
        for (String[] args : new String[][] {{"--help"}, {"tso", "--help"}, {"table", "--help"}, {"sweep", "--help"},
                {"status", "--help"}, {"version", "--help"}}) {
            assertEquals(0, run(args), String.join(" ", args));
        }
        assertTrue(out.toString().contains("--fast-path"), out.toString());
    }

    @Test
    void optionHelpShowsTheDefaultsOfTheSettingsTheOptionsOverride() {
        assertEquals(0, run("tso", "--help"));
        assertEquals(0, run("status", "--help"));
        // Without white space: help wraps its lines wherever a word or a key ends.
        String help = out.toString().replaceAll("\\s+", "");
        assertTrue(help.contains("tidemark.tso.port,else" + TidemarkConfig.TSO_PORT.defaultValue() + ")"), help);
        assertTrue(help.contains("tidemark.tso.http.port,else" + TidemarkConfig.TSO_HTTP_PORT.defaultValue() + ")"),
                help);
        assertTrue(help.contains("cluster's,else" + TidemarkConfig.TSO_COMMIT_MODE.defaultValue().configName() + ")"),
                help);
        assertTrue(help.contains("(default" + TidemarkConfig.TSO_HTTP_PORT.defaultValue() + ")"), help);
        assertFalse(help.contains("${"), "a setting's default was not filled in: " + help);
    }

    @Test
    void versionIsTheBuildsVersion() {
        assertEquals(0, run("--version"));
        assertEquals("tidemark " + TidemarkVersion.current(), out.toString().trim());
        assertFalse(out.toString().contains("development build"), out.toString());
    }

    @Test
    void versionCommandPrintsTheBuildsVersion() {
        assertEquals(0, run("version"));
        assertEquals("tidemark " + TidemarkVersion.current(), out.toString().trim());
        assertEquals("", err.toString());
    }

    @Test
    void developmentCommandsAreNotProductionCommands() {
        assertEquals(2, run("quickstart"));
        assertEquals(2, run("bench"));
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
    void tableAndSweepNeedAnHbaseSiteFile() {
        assertEquals(2, run("table", "check", "accounts"));
        assertTrue(err.toString().contains("--hbase-site"), err.toString());
        assertEquals(2, run("sweep", "--hbase-site", "/no/such/hbase-site.xml"));
        assertTrue(err.toString().contains("/no/such/hbase-site.xml: no such file"), err.toString());
    }

    @Test
    void tableNeedsAnActionAndATable() {
        assertEquals(2, run("table", "--hbase-site", "/no/such/hbase-site.xml", "check"));
    }
}
