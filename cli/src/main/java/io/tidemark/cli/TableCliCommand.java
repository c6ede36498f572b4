package io.tidemark.cli;

import io.tidemark.client.admin.TableCommand;
import io.tidemark.table.TableFeature;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code ./tidemark table create|enable|check|finish-load}: transactional table administration on an existing cluster.
 */
@Command(name = "table", mixinStandardHelpOptions = true,
        description = {"Creates a transactional table, converts an existing one, or checks one.",
                "  table create <table> <family>...   every version kept, no TTL, families marked, coprocessors "
                        + "attached (--fast-path: the fast-path observer too)",
                "  table enable <table>               converts an existing table the same way; cells it holds count "
                        + "as committed (needs the TSO: the conversion timestamp is a fence)",
                "  table check <table>                lists every problem in plain words (exit code 1 if any)",
                "  table finish-load <table>          ends the bulk load a crashed loader left; what it wrote becomes"
                        + " visible to new transactions",
                "The coprocessor jar must be on the region servers (docs/coprocessors.md)."})
public final class TableCliCommand implements Callable<Integer> {

    @CommandLine.Mixin
    private ClusterOptions cluster;

    @Option(names = "--fast-path", description = "table create also attaches the fast-path observer, first in the"
            + " chain (docs/fast-path.md)")
    private boolean fastPath;

    @Parameters(arity = "2..*", paramLabel = "<words>", description = "create <table> <family>... | enable <table> "
            + "| check <table> | finish-load <table>")
    private List<String> words;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Set<TableFeature> features = EnumSet.copyOf(TableFeature.DEFAULT);
        if (fastPath) {
            features.add(TableFeature.FAST_PATH);
        }
        return cluster.withConnection(spec.commandLine(), (connection, config) ->
                new TableCommand(connection, config, features).run(words, System.out));
    }
}
