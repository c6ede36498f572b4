package io.tidemark.cli;

import io.tidemark.client.admin.TableCommand;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.concurrent.Callable;

/** {@code ./tidemark table create|enable|check}: transactional table administration on an existing cluster. */
@Command(name = "table", mixinStandardHelpOptions = true,
        description = {"Creates a transactional table, converts an existing one, or checks one.",
                "  table create <table> <family>...   every version kept, no TTL, families marked, coprocessors "
                        + "attached",
                "  table enable <table>               converts an existing table the same way",
                "  table check <table>                lists every problem in plain words (exit code 1 if any)",
                "The coprocessor jar must be on the region servers (docs/coprocessors.md)."})
final class TableCliCommand implements Callable<Integer> {

    @CommandLine.Mixin
    private ClusterOptions cluster;

    @Parameters(arity = "2..*", paramLabel = "<words>", description = "create <table> <family>... | enable <table> "
            + "| check <table>")
    private List<String> words;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        TidemarkConfig config = new TidemarkConfig(cluster.load(spec.commandLine()));
        try (Connection connection = ConnectionFactory.createConnection(config.hadoopConfiguration())) {
            return new TableCommand(connection, config).run(words, System.out);
        }
    }
}
