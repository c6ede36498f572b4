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

    /**
     * The message, plus the innermost cause's when it adds something (a port in use, a missing table...); first lines
     * only, since the message of an exception from an HBase server carries the server's stack trace.
     */
    static String describe(Throwable e) {
        String top = e.getMessage() != null ? firstLine(e.getMessage()) : e.getClass().getSimpleName();
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root == e || root.getMessage() == null || top.contains(firstLine(root.getMessage()))) {
            return top;
        }
        return top + " (" + firstLine(root.getMessage()) + ")";
    }

    private static String firstLine(String message) {
        int end = message.indexOf('\n');
        return (end < 0 ? message : message.substring(0, end)).trim();
    }
}
