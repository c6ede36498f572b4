package io.tidemark.testing;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs a command line as a user does, its standard output and error going where the test can read them. */
public final class CommandLineRun {

    private CommandLineRun() {
    }

    /** @return the exit code, with what the command printed appended to {@code out} and {@code err} */
    public static int execute(CommandLine commandLine, StringWriter out, StringWriter err, String... args) {
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        return commandLine.execute(args);
    }
}
