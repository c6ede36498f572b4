package io.tidemark.cli;

import picocli.CommandLine;

import java.io.PrintWriter;

/**
 * A command failed: one line with the reason, exit code 1. Setting the environment variable TIDEMARK_DEBUG shows
 * the stack trace as well.
 */
public final class FailureHandler implements CommandLine.IExecutionExceptionHandler {

    public static final int FAILURE_EXIT_CODE = 1;

    @Override
    public int handleExecutionException(Exception e, CommandLine commandLine, CommandLine.ParseResult parseResult) {
        PrintWriter err = commandLine.getErr();
        err.println(commandLine.getCommandSpec().qualifiedName() + ": " + describe(e));
        if (System.getenv("TIDEMARK_DEBUG") != null) {
            e.printStackTrace(err);
        }
        err.flush();
        return FAILURE_EXIT_CODE;
    }

    /** The message, plus the innermost cause's when it adds something (a port in use, a missing table...). */
    private static String describe(Throwable e) {
        String top = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root == e || root.getMessage() == null || top.contains(root.getMessage())) {
            return top;
        }
        return top + " (" + root.getMessage() + ")";
    }
}
