package io.tidemark.devcli;

import io.tidemark.config.HostAndPort;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.embedded.EmbeddedStorage;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a benchmark runs on: an embedded HBase on {@code --storage local|hdfs} (the default, local), or an existing
 * cluster ({@code --hbase-site FILE}) with a TSO started separately ({@code --tso host:port}, or the one holding the
 * lease in that cluster's ZooKeeper).
 */
final class BenchClusterOptions {

    @Mixin
    private StorageOption storage;

    @Option(names = "--hbase-site", paramLabel = "<file>",
            description = "Run against an existing HBase cluster (this hbase-site.xml) and its running TSO instead "
                    + "of an embedded HBase; only that TSO's commit mode can be measured.")
    private Path hbaseSite;

    @Option(names = "--tso", paramLabel = "<host:port>",
            description = "With --hbase-site: the TSO's address (default: the active TSO named by the lease in the "
                    + "cluster's ZooKeeper).")
    private String tso;

    /**
     * Checks the combination before anything starts.
     *
     * @throws CommandLine.ParameterException naming what is wrong
     */
    void validate(CommandLine commandLine) {
        if (hbaseSite == null) {
            if (tso != null) {
                throw new CommandLine.ParameterException(commandLine, "--tso needs --hbase-site: an embedded "
                        + "HBase comes with TSOs the benchmark starts itself");
            }
            return;
        }
        if (storage.given()) {
            throw new CommandLine.ParameterException(commandLine, "--storage is the embedded HBase's; an existing "
                    + "cluster (--hbase-site) has the storage it has: give one of the two");
        }
        if (!Files.isRegularFile(hbaseSite) || !Files.isReadable(hbaseSite)) {
            throw new CommandLine.ParameterException(commandLine, "--hbase-site " + hbaseSite
                    + ": no such readable file");
        }
        if (tso != null) {
            try {
                HostAndPort.parse(tso);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(commandLine, "--tso " + tso + ": " + e.getMessage());
            }
        }
    }

    /** Whether the benchmark runs on an existing cluster rather than an embedded HBase. */
    boolean existingCluster() {
        return hbaseSite != null;
    }

    EmbeddedStorage storage() {
        return storage.storage();
    }

    /** The existing cluster's HBase client configuration: its hbase-site.xml, then tidemark-site.xml. */
    Configuration hbaseConfiguration() {
        Configuration conf = HBaseConfiguration.create();
        conf.addResource(new org.apache.hadoop.fs.Path(hbaseSite.toAbsolutePath().toUri()));
        conf.addResource(TidemarkConfig.SITE_FILE);
        return conf;
    }

    /** Client settings for the existing cluster's TSO, named by --tso or found through its ZooKeeper. */
    TidemarkConfig clientConfig(Configuration hbaseConf) {
        TidemarkConfig config = new TidemarkConfig(new Configuration(hbaseConf));
        if (tso != null) {
            config.set(TidemarkConfig.CLIENT_TSO_ADDRESS, HostAndPort.parse(tso).toString());
        }
        return config;
    }

    /** What the reports say about the existing cluster. */
    String describeExistingCluster() {
        return "--hbase-site " + hbaseSite + (tso != null ? ", --tso " + tso : ", TSO found through ZooKeeper");
    }
}
