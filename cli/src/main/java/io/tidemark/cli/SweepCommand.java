package io.tidemark.cli;

import io.tidemark.client.sweeper.CommitTableSweeper;
import io.tidemark.client.sweeper.SweepResult;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/** {@code ./tidemark sweep}: one pass of commit-table hygiene, meant to be run on a schedule (cron or similar). */
@Command(name = "sweep", mixinStandardHelpOptions = true,
        description = {"Completes the post-commit of committed records older than tidemark.sweeper.committed-age-ms"
                + " (writes their shadow cells, then deletes them) and rolls back invalidated records older than"
                + " tidemark.sweeper.invalidated-age-ms, until nothing that old is left. Run it on a schedule."})
public final class SweepCommand implements Callable<Integer> {

    @CommandLine.Mixin
    private ClusterOptions cluster;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        TidemarkConfig config = new TidemarkConfig(cluster.load(spec.commandLine()));
        try (KerberosLogin login = KerberosLogin.start(config.hadoopConfiguration());
             Connection connection = ConnectionFactory.createConnection(config.hadoopConfiguration())) {
            SweepResult result = new CommitTableSweeper(connection, config).sweepAll();
            System.out.println(result);
            return 0;
        }
    }
}
