package io.tidemark.processcluster;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.processcluster.network.ProcessNetwork;
import org.apache.hadoop.conf.Configuration;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The command line of each kind of process of the cluster. Servers run stock HBase, HDFS or ZooKeeper with their
 * configuration folder first on their classpath (HBase's with the coprocessor bundle too); TSOs and clients run with
 * this JVM's classpath. TSO and client command lines come wrapped by the network, ready to start as their member;
 * server command lines are wrapped when launched, since a restart launches them again.
 */
final class MemberCommands {

    private static final String TSO_MAIN = "io.tidemark.cli.Main";

    private final ClusterFiles files;
    private final ServerClasspath classpath;
    private final ProcessNetwork network;

    MemberCommands(ClusterFiles files, ServerClasspath classpath, ProcessNetwork network) {
        this.files = files;
        this.classpath = classpath;
        this.network = network;
    }

    /** The command of a ZooKeeper, HDFS or HBase server. */
    List<String> server(Member m) {
        Path conf = files.confOf(m);
        return switch (m.role()) {
            case ZOOKEEPER -> java(m, classpath.withoutBundle(conf),
                    "org.apache.zookeeper.server.quorum.QuorumPeerMain", conf.resolve("zoo.cfg").toString());
            case NAMENODE -> java(m, classpath.withoutBundle(conf), "org.apache.hadoop.hdfs.server.namenode.NameNode");
            case DATANODE -> java(m, classpath.withoutBundle(conf), "org.apache.hadoop.hdfs.server.datanode.DataNode");
            case MASTER -> java(m, classpath.withBundle(conf), "org.apache.hadoop.hbase.master.HMaster", "start");
            case REGION_SERVER -> java(m, classpath.withBundle(conf),
                    "org.apache.hadoop.hbase.regionserver.HRegionServer", "start");
            case TSO, CLIENT -> throw new IllegalArgumentException(m.name() + " is not a server");
        };
    }

    /** The command that formats the NameNode's storage, once, before its first start. */
    List<String> formatNameNode(Member namenode) {
        return java(namenode, classpath.withoutBundle(files.confOf(namenode)),
                "org.apache.hadoop.hdfs.server.namenode.NameNode", "-format", "-force", "-nonInteractive");
    }

    /**
     * {@code tidemark tso} as the TSO {@code tso}, reading {@code hbaseSite} (the cluster's quorum and the run's
     * {@code tidemark.*} settings), then its own address and ports, which win (written here into its configuration
     * folder).
     */
    List<String> tso(Member tso, Path hbaseSite) throws IOException {
        Configuration own = new Configuration(false);
        own.set(TidemarkConfig.TSO_HOST.key(), tso.address());
        own.setInt(TidemarkConfig.TSO_PORT.key(), tso.port(ClusterLayout.CLIENT));
        own.setInt(TidemarkConfig.TSO_HTTP_PORT.key(), tso.port(ClusterLayout.HTTP));
        Path ownSite = files.confOf(tso).resolve(TidemarkConfig.SITE_FILE);
        Files.createDirectories(ownSite.getParent());
        ClusterConfiguration.write(own, ownSite);
        return network.launch(tso, JavaCommand.of(tso.role().heap(), classpath.hbaseJvmFlags(),
                System.getProperty("java.class.path"), TSO_MAIN,
                List.of("tso", "--hbase-site", hbaseSite.toString(), "--config", ownSite.toString())));
    }

    /** {@code mainClass} with this JVM's classpath as the client process {@code client}. */
    List<String> client(Member client, String heap, String mainClass, List<String> args) throws IOException {
        return network.launch(client, JavaCommand.of(heap, classpath.hbaseJvmFlags(),
                System.getProperty("java.class.path"), mainClass, args));
    }

    private List<String> java(Member m, List<Path> cp, String mainClass, String... args) {
        return JavaCommand.of(m.role().heap(), classpath.hbaseJvmFlags(), cp, mainClass, List.of(args));
    }
}
