package io.tidemark.devcli;

import io.tidemark.testing.CommandLineRun;

import java.io.StringWriter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ./tidemark} as the option tests run it: its standard output and error kept for the assertions. */
final class DevCommandLine {

    final StringWriter out = new StringWriter();
    final StringWriter err = new StringWriter();

    int run(String... args) {
        return CommandLineRun.execute(Main.commandLine(), out, err, args);
    }

    /** The command is refused before anything starts: exit code 2 and one line naming {@code expected}. */
    void assertOneLineUsageError(String expected, String... args) {
        assertEquals(2, run(args), String.join(" ", args) + ": " + err);
        assertEquals(1, err.toString().lines().count(), err.toString());
        assertTrue(err.toString().contains(expected), err.toString());
        err.getBuffer().setLength(0);
    }
}
