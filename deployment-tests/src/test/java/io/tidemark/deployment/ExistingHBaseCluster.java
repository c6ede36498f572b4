package io.tidemark.deployment;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * "The existing cluster" of an operator: stock HBase in standalone mode (master, region server and ZooKeeper in one
 * JVM of its own, started by HBase's own {@code HMaster start}), on the local file system, with nothing of Tidemark on
 * its classpath but what the operator adds (the coprocessor bundle). HBase's own main class rather than a mini-cluster
 * launcher of ours: the cluster JVM then runs no code of this project at all but the bundle. Its configuration is
 * written here before the start (ZooKeeper on a free port); ready means its master answers and a region server
 * serves {@code hbase:meta}. Its clients get {@link #clientSite()}, an {@code hbase-site.xml} that names only the
 * ZooKeeper quorum and port, as an operator's would.
 */
final class ExistingHBaseCluster implements AutoCloseable {

    private static final String LOOPBACK = "127.0.0.1";
    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

    private final ChildProcess process;
    private final Path clientConfDir;

    private ExistingHBaseCluster(ChildProcess process, Path clientConfDir) {
        this.process = process;
        this.clientConfDir = clientConfDir;
    }

    /**
     * The cluster JVM's classpath: its configuration folder {@code dir}/conf (created here; it only ever holds
     * configuration files), then {@code jars}: HBase's own and what the operator copies into HBase's lib folder.
     */
    static List<Path> classpath(Path dir, List<Path> jars) throws IOException {
        List<Path> classpath = new ArrayList<>();
        classpath.add(Files.createDirectories(dir.resolve("conf")));
        classpath.addAll(jars);
        return classpath;
    }

    /**
     * Writes the cluster's configuration into {@code dir}/conf, starts HBase with {@code classpath} (from
     * {@link #classpath}) and waits until its master is initialized and a region server serves.
     */
    static ExistingHBaseCluster start(Path dir, List<Path> classpath, List<String> jvmFlags) throws IOException {
        Path serverConfDir = dir.resolve("conf");
        if (!classpath.contains(serverConfDir)) {
            throw new IllegalArgumentException("the classpath must come from classpath(dir, jars): " + classpath);
        }
        int zooKeeperPort = freePort();
        Configuration server = new Configuration(false);
        server.set("hbase.cluster.distributed", "false");
        server.set("hbase.rootdir", dir.resolve("hbase").toUri().toString());
        server.set("hbase.tmp.dir", dir.resolve("tmp").toString());
        server.set("hbase.zookeeper.property.dataDir", dir.resolve("zookeeper").toString());
        server.set("hbase.zookeeper.quorum", LOOPBACK);
        server.setInt("hbase.zookeeper.property.clientPort", zooKeeperPort);
        // Master and region server on free ports, no web UIs: nothing here may clash with other processes.
        server.setBoolean("hbase.localcluster.assign.random.ports", true);
        server.setInt("hbase.master.info.port", -1);
        server.setInt("hbase.regionserver.info.port", -1);
        // The region server registers with the master at its next attempt 200 ms later, not HBase's 3 s: a test-speed
        // setting of this harness, not part of what an operator deploys.
        server.setInt("hbase.regionserver.msginterval", 200);
        // Its one region server checked in, the master goes on instead of waiting out 4.5 s for more (also a test-speed
        // setting).
        server.setInt("hbase.master.wait.on.regionservers.maxtostart", 1);
        // The local file system cannot hflush: the WAL must not insist on that capability (as HBase's own
        // standalone configuration says).
        server.setBoolean("hbase.unsafe.stream.capability.enforce", false);
        server.set("hbase.wal.provider", "filesystem");
        writeSite(server, serverConfDir.resolve("hbase-site.xml"));
        Files.writeString(serverConfDir.resolve("log4j.properties"), String.join("\n",
                "log4j.rootLogger=INFO,console",
                "log4j.appender.console=org.apache.log4j.ConsoleAppender",
                "log4j.appender.console.layout=org.apache.log4j.PatternLayout",
                "log4j.appender.console.layout.ConversionPattern=%d{ISO8601} %-5p [%t] %c{2}: %m%n",
                "log4j.logger.org.apache.zookeeper=WARN", ""));

        Configuration client = new Configuration(false);
        client.set("hbase.zookeeper.quorum", LOOPBACK);
        client.setInt("hbase.zookeeper.property.clientPort", zooKeeperPort);
        Path clientConfDir = Files.createDirectories(dir.resolve("client-conf"));
        writeSite(client, clientConfDir.resolve("hbase-site.xml"));

        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx1g");
        command.add("-XX:+UseParallelGC");
        // The client compiler only, as in every test JVM (root pom, test.jit): this HBase lives about a minute.
        command.add("-XX:TieredStopAtLevel=1");
        command.addAll(jvmFlags);
        command.add("-cp");
        command.add(classpath.stream().map(Path::toString).collect(Collectors.joining(":")));
        command.add("org.apache.hadoop.hbase.master.HMaster");
        command.add("start");
        ChildProcess process = ChildProcess.start("hbase", command, Map.of(), dir.resolve("logs"));
        ExistingHBaseCluster cluster = new ExistingHBaseCluster(process, clientConfDir);
        try {
            cluster.awaitReady();
        } catch (RuntimeException | Error e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    /** The {@code hbase-site.xml} an operator hands to clients and to Tidemark: ZooKeeper quorum and port. */
    Path clientSite() {
        return clientConfDir.resolve("hbase-site.xml");
    }

    /** A folder holding only {@link #clientSite()}, for a client's classpath. */
    Path clientConfDir() {
        return clientConfDir;
    }

    /** An HBase client configuration for this cluster, read from {@link #clientSite()} as any client would. */
    Configuration clientConfiguration() {
        Configuration conf = HBaseConfiguration.create();
        conf.addResource(new org.apache.hadoop.fs.Path(clientSite().toUri()));
        return conf;
    }

    String describe() {
        return process.describe();
    }

    @Override
    public void close() {
        process.close();
    }

    private void awaitReady() {
        Configuration conf = clientConfiguration();
        // Fail fast per attempt; the loop below is the patience.
        conf.setInt("hbase.client.retries.number", 1);
        conf.setInt("zookeeper.recovery.retry", 0);
        conf.setInt("hbase.rpc.timeout", 5_000);
        conf.setInt("hbase.client.operation.timeout", 10_000);
        Instant deadline = Instant.now().plus(START_TIMEOUT);
        Exception last = null;
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new AssertionError("HBase exited before it was ready\n" + describe());
            }
            try (Connection connection = ConnectionFactory.createConnection(conf);
                 Admin admin = connection.getAdmin()) {
                // Answered only by an initialized master; then hbase:meta must be online on a region server.
                admin.listNamespaceDescriptors();
                ClusterMetrics metrics = admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS));
                if (!metrics.getLiveServerMetrics().isEmpty() && admin.isTableAvailable(TableName.META_TABLE_NAME)) {
                    return;
                }
            } catch (IOException | RuntimeException e) {
                last = e;
            }
            sleep(Duration.ofMillis(500));
        }
        throw new AssertionError("HBase was not ready within " + START_TIMEOUT + " (last: " + last + ")\n"
                + describe());
    }

    private static void writeSite(Configuration conf, Path file) throws IOException {
        try (OutputStream out = Files.newOutputStream(file)) {
            conf.writeXml(out);
        }
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
