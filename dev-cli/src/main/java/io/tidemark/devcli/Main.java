package io.tidemark.devcli;

import io.tidemark.chaos.cli.ChaosCommand;
import io.tidemark.cli.StatusCommand;
import io.tidemark.cli.SweepCommand;
import io.tidemark.cli.TableCliCommand;
import io.tidemark.cli.TsoCommand;
import io.tidemark.cli.VersionCommand;
import io.tidemark.cli.VersionProvider;
import io.tidemark.processcluster.cli.ClusterCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * Entry point of {@code ./tidemark}: the development commands (quick start, embedded server, benchmarks, the chaos
 * checker), which run an embedded HBase, plus every production command of the cli module.
 */
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
                StatusCommand.class,
                VersionCommand.class,
                BenchCommand.class,
                ChaosCommand.class,
                ClusterCommand.class,
                CommandLine.HelpCommand.class
        })
public final class Main implements Runnable {

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(io.tidemark.cli.Main.execute(commandLine(), args));
    }

    /** The configured command line, also used by tests. */
    static CommandLine commandLine() {
        return io.tidemark.cli.Main.configured(new Main());
    }

    /** Without a subcommand: show what there is. */
    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(),
                "missing command: use quickstart, server, tso, table, sweep, status, version, bench, chaos, cluster or"
                        + " ycsb");
    }
}
