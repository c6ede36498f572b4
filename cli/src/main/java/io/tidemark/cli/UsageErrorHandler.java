package io.tidemark.cli;

import picocli.CommandLine;

import java.io.PrintWriter;

/** Bad usage: one line naming the problem and where help is, then exit code 2. */
public final class UsageErrorHandler implements CommandLine.IParameterExceptionHandler {

    public static final int USAGE_EXIT_CODE = 2;

    @Override
    public int handleParseException(CommandLine.ParameterException e, String[] args) {
        PrintWriter err = e.getCommandLine().getErr();
        err.println("tidemark: " + e.getMessage() + " (see " + e.getCommandLine().getCommandSpec().qualifiedName()
                + " --help)");
        err.flush();
        return USAGE_EXIT_CODE;
    }
}
