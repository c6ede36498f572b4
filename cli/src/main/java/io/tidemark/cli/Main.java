package io.tidemark.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of Tidemark's production commands (module cli): the TSO, table administration, the sweeper, the
 * TSO's status and the version. Their classpath holds no embedded HBase and no test code; {@code ./tidemark} runs them
 * from it.
 */
@Command(name = "tidemark",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "ACID transactions for Apache HBase: the production commands.",
        subcommands = {
                TsoCommand.class,
                TableCliCommand.class,
                SweepCommand.class,
                StatusCommand.class,
                VersionCommand.class,
                CommandLine.HelpCommand.class
        })
public final class Main implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(execute(commandLine(), args));
    }

    /**
     * Runs {@code commandLine} and returns its exit code. An {@link Error} escaping a command (a class missing from the
     * classpath, a failed static initializer) is a failure too, exit 1 with its reason: picocli hands Errors on, and
     * a command that dies that way may leave non-daemon threads behind (a mini-cluster's ZooKeeper) which kept the JVM
     * alive with no exit code at all.
     */
    public static int execute(CommandLine commandLine, String[] args) {
        try {
            return commandLine.execute(args);
        } catch (Error e) {
            commandLine.getErr().println(commandLine.getCommandName() + ": " + FailureHandler.describe(e));
            if (System.getenv("TIDEMARK_DEBUG") != null) {
                e.printStackTrace(commandLine.getErr());
            }
            commandLine.getErr().flush();
            return FailureHandler.FAILURE_EXIT_CODE;
        }
    }

    /** The configured command line, also used by tests. */
    static CommandLine commandLine() {
        return configured(new Main());
    }

    /**
     * {@code command}'s command line with Tidemark's handling of usage errors (exit 2) and failures (exit 1), and the
     * settings' defaults for its options' help and defaults ({@code ${bundle:default.<key>}}, {@link SettingDefaults}).
     */
    public static CommandLine configured(Object command) {
        return new CommandLine(command)
                .setResourceBundle(new SettingDefaults())
                .setParameterExceptionHandler(new UsageErrorHandler())
                .setExecutionExceptionHandler(new FailureHandler());
    }

    /** Without a subcommand: show what there is. */
    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "missing command: use tso, table, sweep, status or version");
    }
}
