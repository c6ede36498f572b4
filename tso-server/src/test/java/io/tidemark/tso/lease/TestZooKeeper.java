package io.tidemark.tso.lease;

import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** A real standalone ZooKeeper server (the one in HBase's ZooKeeper jar) on a free loopback port; no HBase. */
final class TestZooKeeper implements AutoCloseable {

    private static final int TICK_MILLIS = 500;

    private final ZooKeeperServer server;
    private final ServerCnxnFactory connections;
    private final Path directory;

    private TestZooKeeper(ZooKeeperServer server, ServerCnxnFactory connections, Path directory) {
        this.server = server;
        this.connections = connections;
        this.directory = directory;
    }

    static TestZooKeeper start() throws IOException, InterruptedException {
        Path directory = Files.createTempDirectory("tidemark-zk-");
        File data = directory.toFile();
        ZooKeeperServer server = new ZooKeeperServer(data, data, TICK_MILLIS);
        ServerCnxnFactory connections = ServerCnxnFactory.createFactory(new InetSocketAddress("127.0.0.1", 0), 100);
        connections.startup(server);
        return new TestZooKeeper(server, connections, directory);
    }

    String connectString() {
        return "127.0.0.1:" + connections.getLocalPort();
    }

    @Override
    public void close() throws IOException {
        connections.shutdown();
        server.shutdown();
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
