package io.tidemark.cli;

import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * How a command reaches an HBase cluster that already runs: its hbase-site.xml, then tidemark-site.xml from the
 * classpath, then an optional --config file (later files win).
 */
final class ClusterOptions {

    /** What a command does with its connection to the cluster. */
    @FunctionalInterface
    interface ClusterWork {
        int run(Connection connection, TidemarkConfig config) throws Exception;
    }

    @Option(names = "--hbase-site", required = true, paramLabel = "<file>",
            description = "hbase-site.xml of the cluster (ZooKeeper quorum and port).")
    private Path hbaseSite;

    @Option(names = "--config", paramLabel = "<file>", description = "A tidemark-site.xml with tidemark.* settings.")
    private @Nullable Path tidemarkSite;

    /** The merged configuration; a missing, unreadable or broken file is a usage error naming its option. */
    Configuration load(CommandLine commandLine) {
        Configuration conf = HBaseConfiguration.create();
        addSiteFile(commandLine, conf, "--hbase-site", hbaseSite);
        conf.addResource(TidemarkConfig.SITE_FILE);
        if (tidemarkSite != null) {
            addSiteFile(commandLine, conf, "--config", tidemarkSite);
        }
        return conf;
    }

    /**
     * Runs {@code work} on a connection to the cluster, logged in to Kerberos first when the configuration names a
     * principal; closes both after it.
     *
     * @return the work's exit code
     */
    int withConnection(CommandLine commandLine, ClusterWork work) throws Exception {
        TidemarkConfig config = new TidemarkConfig(load(commandLine));
        try (KerberosLogin login = KerberosLogin.start(config.hadoopConfiguration());
             Connection connection = ConnectionFactory.createConnection(config.hadoopConfiguration())) {
            return work.run(connection, config);
        }
    }

    private static void addSiteFile(CommandLine commandLine, Configuration conf, String option, Path file) {
        if (!Files.isRegularFile(file)) {
            throw new CommandLine.ParameterException(commandLine, option + " " + file + ": no such file");
        }
        if (!Files.isReadable(file)) {
            throw new CommandLine.ParameterException(commandLine, option + " " + file + ": file is not readable");
        }
        try {
            conf.addResource(new org.apache.hadoop.fs.Path(file.toAbsolutePath().toUri()));
            // Hadoop may parse site files lazily; parse now so a broken file is reported against its option.
            conf.get(TidemarkConfig.TSO_PORT.key());
        } catch (RuntimeException e) {
            throw new CommandLine.ParameterException(commandLine,
                    option + " " + file + ": not a valid configuration file (" + e.getMessage() + ")");
        }
    }
}
