package io.tidemark.chaos.cluster;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.embedded.EmbeddedCluster;
import io.tidemark.tso.TsoServer;
import org.apache.hadoop.hbase.client.Connection;

import java.io.IOException;
import java.util.Random;

/**
 * The TSO of one chaos run, in this JVM. It starts on an ephemeral port and every restart binds that same port
 * again, so clients (in this JVM and in child JVMs), pinned to that address, reconnect to the new incarnation.
 */
public final class ChaosTso implements RunTso {

    private static final int BIND_ATTEMPTS = 20;
    private static final long BIND_RETRY_MS = 250;

    private final Connection connection;
    private final TidemarkConfig config;
    private TsoServer server;
    private int port;

    public ChaosTso(Connection connection, TidemarkConfig config) {
        this.connection = connection;
        this.config = config;
        EmbeddedCluster.usePatientLease(config);
    }

    @Override
    public synchronized void start() throws IOException {
        config.set(TidemarkConfig.TSO_PORT, Integer.toString(port));
        server = TsoServer.builder().config(config).hbaseConnection(connection).build();
        server.start();
        port = server.port();
    }

    @Override
    public synchronized String pinnedAddress() {
        return "127.0.0.1:" + port;
    }

    /** Stops the TSO, waits up to a second, and starts a new incarnation on the same port. */
    @Override
    public String restart(Random random) throws IOException, InterruptedException {
        stop();
        Thread.sleep(random.nextInt(1000));
        restart();
        return "restarted the TSO";
    }

    @Override
    public String failover() {
        throw new UnsupportedOperationException("a TSO failover needs TSO processes with a standby (a scenario whose"
                + " TSO setup is " + TsoSetup.PROCESSES_WITH_STANDBY + ")");
    }

    @Override
    public synchronized void ensureServing() throws IOException, InterruptedException {
        if (server == null || server.stopped().isDone()) {
            restart();
        }
    }

    /** Stops the TSO: in-flight BEGINs and COMMITs lose their answers. */
    private synchronized void stop() {
        if (server != null) {
            server.close();
            server = null;
        }
    }

    /** Starts a new incarnation (a new epoch) on the same port, retrying while the old socket lingers. */
    private synchronized void restart() throws IOException, InterruptedException {
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
