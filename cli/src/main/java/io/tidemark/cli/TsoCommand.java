package io.tidemark.cli;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.tso.TsoServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

/** A TSO for an HBase cluster that already runs elsewhere. */
@Command(name = "tso", mixinStandardHelpOptions = true,
        description = {"Runs a TSO against an existing HBase cluster until Ctrl-C.",
                "Creates the commit and timestamp tables when they are missing. tidemark.* settings are read from "
                        + "the hbase-site.xml, from tidemark-site.xml on the classpath, then from --config; "
                        + "--port and --mode override them."})
public final class TsoCommand implements Callable<Integer> {

    @CommandLine.Mixin
    private ClusterOptions cluster;

    @Option(names = "--port", paramLabel = "<port>",
            description = "TCP port to listen on (default: tidemark.tso.port, else "
                    + TidemarkConfig.TSO_PORT_DEFAULT + ").")
    private Integer port;

    @Option(names = "--mode", paramLabel = "<mode>", converter = CommitModeConverter.class,
            completionCandidates = CommitModeConverter.Names.class,
            description = "Commit mode: ${COMPLETION-CANDIDATES} (default: tidemark.tso.commit-mode, else "
                    + TidemarkConfig.TSO_COMMIT_MODE_DEFAULT + ").")
    private CommitMode mode;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        Configuration conf = cluster.load(spec.commandLine());
        TidemarkConfig config = new TidemarkConfig(conf);
        if (port != null) {
            if (port < 0 || port > 65535) {
                throw usage("--port must be from 0 to 65535, got " + port);
            }
            config.set(TidemarkConfig.TSO_PORT, port.toString());
        }
        if (mode != null) {
            config.set(TidemarkConfig.TSO_COMMIT_MODE, mode.configName());
        }

        Connection connection = ConnectionFactory.createConnection(conf);
        TsoServer server;
        try {
            server = TsoServer.builder().config(config).hbaseConnection(connection).build();
            server.start();
        } catch (Exception e) {
            connection.close();
            throw e;
        }
        System.out.println("TSO listening on port " + server.port() + " in "
                + config.getChoice(TidemarkConfig.TSO_COMMIT_MODE, TidemarkConfig.TSO_COMMIT_MODE_DEFAULT,
                "low-latency", "batched") + " mode, epoch " + server.epoch() + ". Press Ctrl-C to stop.");
        System.out.println("Clients set " + TidemarkConfig.CLIENT_TSO_ADDRESS + " to <this host>:" + server.port()
                + ".");
        TsoServer running = server;
        RunUntilStopped.await("the TSO", () -> {
            try {
                running.close();
            } finally {
                connection.close();
            }
        });
        return 0;
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
