package io.tidemark.chaos.cluster;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.tso.TsoServer;
import org.apache.hadoop.hbase.client.Connection;

import java.io.IOException;

/**
 * The TSO of one chaos run, in this JVM. It starts on an ephemeral port and every restart binds that same port
 * again, so clients (in this JVM and in child JVMs) reconnect to the new incarnation at the address they know.
 */
public final class ChaosTso implements AutoCloseable {

    private static final int BIND_ATTEMPTS = 20;
    private static final long BIND_RETRY_MS = 250;

    private final Connection connection;
    private final TidemarkConfig config;
    private TsoServer server;
    private int port;

    public ChaosTso(Connection connection, TidemarkConfig config) {
        this.connection = connection;
        this.config = config;
    }

    public synchronized void start() throws IOException {
        config.set(TidemarkConfig.TSO_PORT, Integer.toString(port));
        server = TsoServer.builder().config(config).hbaseConnection(connection).build();
        server.start();
        port = server.port();
    }

    /** {@code host:port} for clients. */
    public synchronized String address() {
        return "127.0.0.1:" + port;
    }

    /** Whether a TSO is serving now. */
    public synchronized boolean isRunning() {
        return server != null;
    }

    /** Stops the TSO: in-flight BEGINs and COMMITs lose their answers. */
    public synchronized void stop() {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    /** Starts a new incarnation (a new epoch) on the same port, retrying while the old socket lingers. */
    public synchronized void restart() throws IOException, InterruptedException {
        stop();
        IOException last = null;
        for (int attempt = 0; attempt < BIND_ATTEMPTS; attempt++) {
            try {
                start();
                return;
            } catch (IOException e) {
                last = e;
                server = null;
                Thread.sleep(BIND_RETRY_MS);
            }
        }
        throw new IOException("the TSO could not be restarted on port " + port, last);
    }

    @Override
    public synchronized void close() {
        stop();
    }
}
