package io.tidemark.cli;

import io.tidemark.client.sweeper.CommitTableSweeper;
import io.tidemark.client.sweeper.SweepResult;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.concurrent.Callable;

/** {@code ./tidemark sweep}: one pass of commit-table hygiene, meant to be run on a schedule (cron or similar). */
@Command(name = "sweep", mixinStandardHelpOptions = true,
        description = {"Completes the post-commit of committed records older than tidemark.sweeper.committed-age-ms"
                + " (writes their shadow cells, then deletes them), undoes invalidations of writers that had committed,"
                + " and rolls back invalidated records older than tidemark.sweeper.invalidated-age-ms whose writers"
                + " started at or below the low watermark, removing their markers once the commit-record deadline has"
                + " passed. Never deletes committed data; refuses to run while a table that may hold transactional"
                + " cells is not marked. Run it on a schedule."})
public final class SweepCommand implements Callable<Integer> {

    @CommandLine.Mixin
    private ClusterOptions cluster;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        return cluster.withConnection(spec.commandLine(), (connection, config) -> {
            SweepResult result = new CommitTableSweeper(connection, config).sweepAll();
            System.out.println(result);
            return 0;
        });
    }
}
