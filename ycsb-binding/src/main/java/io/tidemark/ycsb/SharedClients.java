package io.tidemark.ycsb;

import io.tidemark.client.TransactionManager;
import io.tidemark.client.tso.NettyTsoClient;
import io.tidemark.client.tso.TsoUnavailableException;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;

/**
 * The HBase connection and the TransactionManager that every YCSB client thread of a JVM shares (both are
 * thread-safe and expensive). YCSB creates one DB instance per thread and calls init/cleanup on each, so the first
 * {@link #acquire} opens them with that instance's settings and the last {@link #release} closes them.
 */
final class SharedClients {

    private static final Logger LOG = LoggerFactory.getLogger(SharedClients.class);

    private static SharedClients current;
    private static int users;

    private final BindingSettings settings;
    private final Connection connection;
    private final NettyTsoClient tso;
    private final TransactionManager transactionManager;

    private SharedClients(BindingSettings settings, Connection connection, NettyTsoClient tso,
            TransactionManager transactionManager) {
        this.settings = settings;
        this.connection = connection;
        this.tso = tso;
        this.transactionManager = transactionManager;
    }

    static synchronized SharedClients acquire(BindingSettings settings) throws IOException {
        if (current == null) {
            current = open(settings);
        } else if (current.settings.mode() != settings.mode()) {
            throw new IllegalStateException("this JVM already runs the binding in " + BindingMode.PROPERTY + "="
                    + current.settings.mode().propertyValue() + "; one JVM runs one mode at a time");
        }
        users++;
        return current;
    }

    /** Gives back what {@link #acquire} handed out; the last user closes everything. */
    static synchronized void release(SharedClients clients) {
        if (clients != current || users == 0) {
            throw new IllegalStateException("released shared clients that are not the current ones");
        }
        users--;
        if (users == 0) {
            current = null;
            clients.close();
        }
    }

    BindingSettings settings() {
        return settings;
    }

    Connection connection() {
        return connection;
    }

    /** Null in raw mode. */
    TransactionManager transactionManager() {
        return transactionManager;
    }

    private static SharedClients open(BindingSettings settings) throws IOException {
        Connection connection = ConnectionFactory.createConnection(settings.hbaseConfiguration());
        NettyTsoClient tso = null;
        try {
            TableSetup.prepare(connection, settings);
            if (!settings.mode().isTransactional()) {
                return new SharedClients(settings, connection, null, null);
            }
            tso = NettyTsoClient.create(settings.tidemarkConfig(), connection.getConfiguration());
            checkCommitMode(settings, tso);
            TransactionManager manager = TransactionManager.builder(connection)
                    .config(settings.tidemarkConfig())
                    .tsoClient(tso)
                    .build();
            return new SharedClients(settings, connection, tso, manager);
        } catch (IOException | RuntimeException e) {
            if (tso != null) {
                tso.close();
            }
            closeQuietly(connection);
            throw e;
        }
    }

    /** A mode's numbers are only meaningful if the TSO commits the way the mode's name says. */
    private static void checkCommitMode(BindingSettings settings, NettyTsoClient tso) throws IOException {
        CommitMode actual;
        try {
            actual = tso.incarnation().commitMode();
        } catch (TsoUnavailableException e) {
            throw new IOException("cannot reach " + tso.describeTarget() + ": " + e.getMessage() + ". Start one"
                    + " (./tidemark server or ./tidemark tso); the binding finds it through the HBase cluster's"
                    + " ZooKeeper unless " + BindingSettings.TSO_ADDRESS + " points at it", e);
        }
        CommitMode required = settings.mode().requiredCommitMode();
        if (actual != required) {
            throw new IOException(BindingMode.PROPERTY + "=" + settings.mode().propertyValue() + " needs a TSO in "
                    + required.configName() + " commit mode, but " + tso.describeTarget() + " runs in "
                    + actual.configName() + " mode. Restart the TSO with " + TidemarkConfig.TSO_COMMIT_MODE + "="
                    + required.configName() + " (./tidemark server --mode " + required.configName() + "), or use "
                    + BindingMode.PROPERTY + "=" + modeFor(actual).propertyValue());
        }
    }

    private static BindingMode modeFor(CommitMode commitMode) {
        return commitMode == CommitMode.BATCHED ? BindingMode.BATCHED : BindingMode.GENERIC;
    }

    private void close() {
        if (transactionManager != null) {
            transactionManager.close();
        }
        if (tso != null) {
            tso.close();
        }
        closeQuietly(connection);
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (IOException e) {
            LOG.warn("closing the HBase connection failed", e);
        }
    }
}
