package io.tidemark.processcluster;

import org.apache.hadoop.conf.Configuration;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes every process's configuration folder: {@code zoo.cfg} and {@code myid} for ZooKeeper; for HDFS and HBase one
 * set of settings written as {@code core-site.xml}, {@code hdfs-site.xml} and {@code hbase-site.xml} (each process
 * reads the ones it knows); a {@code log4j.properties}. Every process binds to, and names itself by, its own
 * address. Timeouts are shorter than the defaults so that failures are noticed within seconds, as a chaos run needs.
 */
public final class ClusterConfiguration {

    /** ZooKeeper's tick: sessions may last 2 to 20 ticks. */
    public static final int ZOOKEEPER_TICK_MS = 1000;
    /** Session timeout of HBase's processes: a region server silent this long is declared dead by the master. */
    public static final int ZOOKEEPER_SESSION_TIMEOUT_MS = 6000;
    /** A DataNode without a heartbeat for this long is stale: new blocks avoid it. */
    public static final int DATANODE_STALE_MS = 3000;
    /** WAL (and every HBase file) replication. */
    public static final int REPLICATION = 3;

    private final ClusterLayout layout;
    private final ClusterFiles files;

    public ClusterConfiguration(ClusterLayout layout, ClusterFiles files) {
        this.layout = layout;
        this.files = files;
    }

    /** Writes the configuration of every process and the client site. */
    public void writeAll() throws IOException {
        for (Member m : layout.members()) {
            Files.createDirectories(files.confOf(m));
            Files.createDirectories(files.dataOf(m));
            Files.writeString(files.confOf(m).resolve("log4j.properties"), log4j(m), StandardCharsets.UTF_8);
            switch (m.role()) {
                case ZOOKEEPER -> writeZooKeeper(m);
                case NAMENODE, DATANODE -> {
                    writeSites(m, server(m));
                    createWebApps(m);
                }
                case MASTER, REGION_SERVER -> writeSites(m, server(m));
                default -> {
                    // TSOs and clients read the client site (and their own settings, written when they start).
                }
            }
        }
        Files.createDirectories(files.clientSite().getParent());
        write(client(), files.clientSite());
    }

    /** What an application needs to reach the cluster: the ZooKeeper quorum (it finds everything else there). */
    public Configuration client() {
        Configuration conf = new Configuration(false);
        conf.set("hbase.zookeeper.quorum", layout.zookeeperQuorum());
        conf.setInt("zookeeper.session.timeout", ZOOKEEPER_SESSION_TIMEOUT_MS);
        return conf;
    }

    private Configuration server(Member m) {
        Configuration conf = client();
        Member namenode = layout.ofRole(Role.NAMENODE).get(0);
        String tmp = files.dataOf(m).resolve("tmp").toString();
        // Hadoop: one NameNode, replication 3, failures noticed in seconds.
        conf.set("fs.defaultFS", layout.fileSystemUri());
        conf.set("hadoop.tmp.dir", tmp);
        conf.setInt("dfs.replication", REPLICATION);
        conf.setBoolean("dfs.permissions.enabled", false);
        conf.set("dfs.namenode.rpc-address", namenode.endpoint(ClusterLayout.RPC));
        conf.set("dfs.namenode.http-address", namenode.endpoint(ClusterLayout.HTTP));
        conf.set("dfs.namenode.name.dir", files.dataOf(namenode).resolve("name").toUri().toString());
        conf.setInt("dfs.namenode.safemode.extension", 0);
        conf.setInt("dfs.namenode.handler.count", 5);
        conf.setInt("dfs.heartbeat.interval", 1);
        conf.setInt("dfs.namenode.heartbeat.recheck-interval", 10_000);
        conf.setInt("dfs.namenode.stale.datanode.interval", DATANODE_STALE_MS);
        conf.setBoolean("dfs.namenode.avoid.read.stale.datanode", true);
        conf.setBoolean("dfs.namenode.avoid.write.stale.datanode", true);
        // DataNodes are told apart by their addresses, which are their names.
        conf.setBoolean("dfs.namenode.datanode.registration.ip-hostname-check", false);
        conf.setBoolean("dfs.client.use.datanode.hostname", true);
        conf.setBoolean("dfs.datanode.use.datanode.hostname", true);
        // With one of three DataNodes gone, a pipeline goes on with two rather than failing the write.
        conf.setBoolean("dfs.client.block.write.replace-datanode-on-failure.best-effort", true);
        conf.setInt("dfs.datanode.handler.count", 3);
        // HBase: distributed, on HDFS, every server named by its address.
        conf.setBoolean("hbase.cluster.distributed", true);
        conf.set("hbase.rootdir", layout.fileSystemUri() + "/hbase");
        conf.set("hbase.tmp.dir", tmp);
        Member master = layout.ofRole(Role.MASTER).get(0);
        conf.set("hbase.master.hostname", master.address());
        conf.setInt("hbase.master.port", master.port(ClusterLayout.RPC));
        conf.setInt("hbase.master.info.port", -1);
        conf.setInt("hbase.regionserver.info.port", -1);
        conf.setInt("hbase.regionserver.handler.count", 10);
        conf.setInt("hbase.master.handler.count", 10);
        // Region servers started before the master is up register at their next attempt, 200 ms later rather than
        // HBase's 3 s (the embedded HBase's setting, EmbeddedHBaseSettings.REPORT_INTERVAL_MS).
        conf.setInt("hbase.regionserver.msginterval", 200);
        // The master goes on as soon as every region server of the layout checked in, instead of waiting out its
        // 4.5 s for more (it still goes on after that with fewer, as after a region server was killed).
        conf.setInt("hbase.master.wait.on.regionservers.maxtostart", layout.ofRole(Role.REGION_SERVER).size());
        switch (m.role()) {
            case DATANODE -> {
                conf.set("dfs.datanode.hostname", m.address());
                conf.set("dfs.datanode.address", m.endpoint(ClusterLayout.DATA));
                conf.set("dfs.datanode.http.address", m.endpoint(ClusterLayout.HTTP));
                conf.set("dfs.datanode.ipc.address", m.endpoint(ClusterLayout.RPC));
                conf.set("dfs.datanode.data.dir", files.dataOf(m).resolve("blocks").toUri().toString());
            }
            case REGION_SERVER -> {
                conf.set("hbase.unsafe.regionserver.hostname", m.address());
                conf.setInt("hbase.regionserver.port", m.port(ClusterLayout.RPC));
            }
            default -> {
                // The NameNode and master addresses are cluster-wide settings, above.
            }
        }
        return conf;
    }

    private void writeZooKeeper(Member m) throws IOException {
        List<String> cfg = new ArrayList<>(List.of(
                "tickTime=" + ZOOKEEPER_TICK_MS,
                "initLimit=10",
                "syncLimit=5",
                "dataDir=" + files.dataOf(m),
                "clientPortAddress=" + m.address(),
                "clientPort=" + m.port(ClusterLayout.CLIENT),
                "maxClientCnxns=0",
                // No admin web server (it would want port 8080 on every address), the status commands readiness
                // uses.
                "admin.enableServer=false",
                "4lw.commands.whitelist=srvr,ruok"));
        for (Member peer : layout.ofRole(Role.ZOOKEEPER)) {
            cfg.add("server." + peer.name().substring(2) + "=" + peer.address() + ":"
                    + peer.port(ClusterLayout.PEER) + ":" + peer.port(ClusterLayout.ELECTION));
        }
        Files.write(files.confOf(m).resolve("zoo.cfg"), cfg, StandardCharsets.UTF_8);
        Files.writeString(files.dataOf(m).resolve("myid"), m.name().substring(2) + "\n", StandardCharsets.UTF_8);
    }

    /**
     * The folders HDFS's HTTP servers look their web application up in, on the classpath. The jars of a Maven build
     * do not ship them (a Hadoop installation does, beside its jars); the servers only need them to exist, since
     * what readiness asks for, {@code /jmx}, is served without them.
     */
    private void createWebApps(Member m) throws IOException {
        String app = m.role() == Role.NAMENODE ? "hdfs" : "datanode";
        for (String folder : List.of(app, "static")) {
            Files.createDirectories(files.confOf(m).resolve("webapps").resolve(folder));
        }
    }

    private void writeSites(Member m, Configuration conf) throws IOException {
        for (String site : List.of("core-site.xml", "hdfs-site.xml", "hbase-site.xml")) {
            write(conf, files.confOf(m).resolve(site));
        }
    }

    /** Logs at INFO, with the chattiest per-operation loggers turned down. */
    private static String log4j(Member m) {
        return String.join("\n",
                "log4j.rootLogger=INFO,console",
                "log4j.appender.console=org.apache.log4j.ConsoleAppender",
                "log4j.appender.console.layout=org.apache.log4j.PatternLayout",
                "log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %-5p [%t] %c{2}: %m%n",
                "log4j.logger.org.apache.zookeeper=" + (m.role() == Role.ZOOKEEPER ? "INFO" : "WARN"),
                "log4j.logger.org.apache.hadoop.hdfs.server.datanode.DataNode.clienttrace=WARN",
                "log4j.logger.org.apache.hadoop.hdfs.StateChange=WARN",
                "log4j.logger.BlockStateChange=WARN",
                "log4j.logger.org.apache.hadoop.metrics2=WARN",
                "log4j.logger.org.apache.hadoop.hbase.metrics=WARN", "");
    }

    static void write(Configuration conf, Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            conf.writeXml(out);
        }
    }
}
