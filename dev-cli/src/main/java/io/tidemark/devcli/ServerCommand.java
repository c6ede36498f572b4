package io.tidemark.devcli;

import io.tidemark.cli.RunUntilStopped;
import io.tidemark.committable.CommitTableSettings;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.embedded.EmbeddedCluster;
import io.tidemark.tso.monitoring.TsoHttpEndpoint;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.concurrent.Callable;

/** A complete single-machine Tidemark for development: embedded HBase plus TSO, until Ctrl-C. */
@Command(name = "server", mixinStandardHelpOptions = true,
        description = {"Runs an embedded HBase and a TSO until Ctrl-C, and prints the settings an application "
                + "needs to use them.", "Data lives in a temporary directory and is deleted when the server stops."})
final class ServerCommand implements Callable<Integer> {

    @Option(names = "--port", defaultValue = "${bundle:default.tidemark.tso.port}", paramLabel = "<port>",
            description = "TCP port of the TSO; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    private int port;

    @Option(names = "--host", defaultValue = EmbeddedCluster.DEFAULT_TSO_HOST, paramLabel = "<address>",
            description = "Address the TSO listens on (default: ${DEFAULT-VALUE}, this machine only, like the embedded"
                    + " HBase); 0.0.0.0 for every interface. The TSO has no authentication unless TLS is configured:"
                    + " only open it to networks you trust.")
    private String host;

    @CommandLine.Mixin
    private EmbeddedClusterOptions embedded;

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (!TidemarkConfig.TSO_PORT.accepts(Integer.toString(port))) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--port must be " + TidemarkConfig.TSO_PORT.type().accepted() + ", got " + port);
        }
        System.out.println(embedded.startingLine());
        EmbeddedCluster cluster = embedded.builder().tsoHost(host).tsoPort(port).start();
        printConnectionDetails(cluster, System.out);
        RunUntilStopped.await("the server", cluster);
        return 0;
    }

    private static void printConnectionDetails(EmbeddedCluster cluster, PrintStream out) {
        String quorum = cluster.embeddedHBase().zookeeperQuorum();
        int zkPort = cluster.embeddedHBase().zookeeperClientPort();
        String tso = cluster.tsoAddress().toString();
        TidemarkConfig config = cluster.clientConfig();
        out.println();
        out.println("Tidemark is running. Press Ctrl-C to stop.");
        out.println();
        out.println("  hbase.zookeeper.quorum              " + quorum);
        out.println("  hbase.zookeeper.property.clientPort " + zkPort);
        out.println("  TSO address                         " + tso);
        if (cluster.tso().httpAddress() != null) {
            out.println("  TSO metrics and health              http://" + cluster.tso().httpAddress()
                    + TsoHttpEndpoint.METRICS_PATH + ", " + TsoHttpEndpoint.HEALTH_PATH);
        }
        out.println("  commit mode                         " + cluster.commitMode().configName());
        out.println("  commit table                        "
                + new CommitTableSettings(config).tableName().getNameAsString());
        out.println("  storage                             " + cluster.embeddedHBase().storage().description());
        out.println("  HBase root directory                " + cluster.embeddedHBase().rootDirectory());
        out.println("  HBase WAL directory                 " + cluster.embeddedHBase().walDirectory());
        out.println("  data directory                      " + cluster.embeddedHBase().dataDirectory());
        out.println();
        out.println("hbase-site.xml for an application:");
        out.println(SiteXml.of("hbase.zookeeper.quorum", quorum,
                "hbase.zookeeper.property.clientPort", Integer.toString(zkPort)));
        out.println("tidemark-site.xml for an application (on its classpath):");
        out.println(SiteXml.of(TidemarkConfig.CLIENT_TSO_ADDRESS.key(), tso));
        out.flush();
    }
}
