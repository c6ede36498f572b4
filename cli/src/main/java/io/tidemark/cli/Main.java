package io.tidemark.cli;

import io.tidemark.chaos.cli.ChaosCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of {@code ./tidemark}: one subcommand per job. */
@Command(name = "tidemark",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "ACID transactions for Apache HBase.",
        footer = {"", "./tidemark ycsb <YCSB Client arguments> runs YCSB's own client with the Tidemark binding "
                + "(see docs/ycsb.md)."},
        subcommands = {
                QuickstartCommand.class,
                ServerCommand.class,
                TsoCommand.class,
                TableCliCommand.class,
                SweepCommand.class,
                BenchCommand.class,
                ChaosCommand.class,
                CommandLine.HelpCommand.class
        })
public final class Main implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line, also used by tests. */
    static CommandLine commandLine() {
        return new CommandLine(new Main())
                .setParameterExceptionHandler(new UsageErrorHandler())
                .setExecutionExceptionHandler(new FailureHandler());
    }

    /** Without a subcommand: show what there is. */
    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "missing command: use quickstart, server, tso or bench");
    }
}
