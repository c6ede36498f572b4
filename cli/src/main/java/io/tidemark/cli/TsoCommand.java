package io.tidemark.cli;

import io.tidemark.config.Setting;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.lease.TsoLeaseNode;
import io.tidemark.protocol.CommitMode;
import io.tidemark.tso.TsoServer;
import io.tidemark.tso.cluster.ClusterSettings;
import io.tidemark.tso.monitoring.TsoHttpEndpoint;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;

/**
 * A TSO for an HBase cluster that already runs elsewhere: the active one, or a standby when another TSO holds the
 * lease. Exits with {@link #STOPPED_SERVING_EXIT_CODE} when it stops serving by itself (lost its lease), so that a
 * supervisor restarts it; it then stands by.
 */
@Command(name = "tso", mixinStandardHelpOptions = true,
        description = {"Runs a TSO against an existing HBase cluster until Ctrl-C.",
                "Creates the commit and timestamp tables when they are missing. When another TSO of the same tables "
                        + "is active, this one stands by and takes over once the active one's lease ends "
                        + "(docs/operations.md). tidemark.* settings are read from the hbase-site.xml, from "
                        + "tidemark-site.xml on the classpath, then from --config; --port, --http-port and --mode "
                        + "override them.",
                "Exit codes: 130 stopped by Ctrl-C, 143 by SIGTERM (the JVM's codes for those signals); 1 could not "
                        + "start; 2 bad usage; "
                        + TsoCommand.STOPPED_SERVING_EXIT_CODE + " stopped serving by itself (lost its lease to "
                        + "another TSO or could not renew it): restart it and it stands by."})
public final class TsoCommand implements Callable<Integer> {

    /** The TSO stopped serving by itself (lease lost, timestamp bound lost, take-over failed). */
    public static final int STOPPED_SERVING_EXIT_CODE = 3;

    @CommandLine.Mixin
    private ClusterOptions cluster;

    @Option(names = "--port", paramLabel = "<port>",
            description = "TCP port to listen on, 0 for any free one (default: tidemark.tso.port, else "
                    + "${bundle:default.tidemark.tso.port}).")
    private @Nullable Integer port;

    @Option(names = "--http-port", paramLabel = "<port>",
            description = "TCP port of /metrics and /health, 0 for any free one, -1 for none (default: "
                    + "tidemark.tso.http.port, else ${bundle:default.tidemark.tso.http.port}).")
    private @Nullable Integer httpPort;

    @Option(names = "--mode", paramLabel = "<mode>", converter = CommitModeConverter.class,
            completionCandidates = CommitModeConverter.Names.class,
            description = "Commit mode: ${COMPLETION-CANDIDATES} (default: tidemark.tso.commit-mode; when unset, the "
                    + "cluster's, else ${bundle:default.tidemark.tso.commit-mode}). A cluster-wide setting: a "
                    + "value that differs from the cluster's is refused unless --reconfigure is given.")
    private @Nullable CommitMode mode;

    @Option(names = "--reconfigure",
            description = "When this TSO takes the lease, store its configured commit mode and conflict level as the "
                    + "cluster's, replacing different ones (docs/operations.md#changing-cluster-settings).")
    private boolean reconfigure;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /** Gives {@code setting} the option's value when given; the option takes what the setting takes. */
    private void override(TidemarkConfig config, Setting<Integer> setting, String option, @Nullable Integer value) {
        if (value == null) {
            return;
        }
        if (!setting.accepts(value.toString())) {
            throw usage(option + " must be " + setting.type().accepted() + ", got " + value);
        }
        config.set(setting, value.toString());
    }

    @Override
    public Integer call() throws Exception {
        Configuration conf = cluster.load(spec.commandLine());
        TidemarkConfig config = new TidemarkConfig(conf);
        override(config, TidemarkConfig.TSO_PORT, "--port", port);
        override(config, TidemarkConfig.TSO_HTTP_PORT, "--http-port", httpPort);
        if (mode != null) {
            config.set(TidemarkConfig.TSO_COMMIT_MODE, mode.configName());
        }

        PrintStream out = System.out;
        KerberosLogin login = KerberosLogin.start(conf);
        Connection connection;
        try {
            connection = ConnectionFactory.createConnection(conf);
        } catch (Exception e) {
            login.close();
            throw e;
        }
        TsoServer server;
        try {
            server = TsoServer.builder().config(config).hbaseConnection(connection).reconfigureCluster(reconfigure)
                    .listener(new Announcer(out)).build();
            server.startCompeting();
        } catch (Exception e) {
            connection.close();
            login.close();
            throw e;
        }
        out.println("TSO listening on port " + server.port() + " (clients reach it as " + server.advertisedAddress()
                + "). Press Ctrl-C to stop.");
        if (server.httpAddress() != null) {
            out.println("Metrics on http://" + server.httpAddress() + TsoHttpEndpoint.METRICS_PATH
                    + ", health on http://"
                    + server.httpAddress() + TsoHttpEndpoint.HEALTH_PATH + ".");
        }
        out.flush();
        CompletableFuture<String> stopped = server.stopped();
        RunUntilStopped.await("the TSO", stopped, () -> {
            try {
                server.close();
            } finally {
                connection.close();
                login.close();
            }
        });
        // Only a TSO that stopped by itself gets here; Ctrl-C ends the JVM through its shutdown hook.
        System.err.println("tidemark tso: stopped serving: " + stopped.join());
        System.err.flush();
        return STOPPED_SERVING_EXIT_CODE;
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }

    /** Prints the TSO's role changes, one line each. */
    private static final class Announcer implements TsoServer.Listener {

        private final PrintStream out;

        Announcer(PrintStream out) {
            this.out = out;
        }

        @Override
        public void standingBy(TsoLeaseNode holder) {
            out.println("Standing by: " + (holder != null ? "the active TSO is " + holder.address()
                    : "another TSO holds the lease") + "; this TSO takes over when its lease ends.");
            out.flush();
        }

        @Override
        public void active(long epoch, ClusterSettings settings) {
            out.println("TSO active: " + settings + ", epoch " + epoch + ".");
            out.flush();
        }
    }
}
