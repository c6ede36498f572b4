package io.tidemark.bench;

import io.tidemark.bench.report.RunStorage;
import io.tidemark.client.tso.NettyTsoClient;
import io.tidemark.client.tso.TsoClient;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.embedded.EmbeddedCluster;
import io.tidemark.embedded.EmbeddedStorage;
import io.tidemark.protocol.CommitMode;
import org.apache.hadoop.hbase.client.Connection;

import java.io.IOException;

/**
 * The HBase and the TSOs a benchmark runs on. Either an embedded HBase (on {@link EmbeddedStorage}), on which the
 * benchmark starts a TSO of each commit mode it measures, or an HBase cluster that already runs, with a TSO started
 * separately: then only that TSO's commit mode can be measured, and {@link #tso} refuses the other.
 */
public final class BenchTarget {

    private final Connection connection;
    private final RunStorage storage;
    /** The running TSO's client configuration on an existing cluster; null when the benchmark starts its TSOs. */
    private final TidemarkConfig externalClientConfig;
    private final CommitMode externalMode;

    private BenchTarget(Connection connection, RunStorage storage, TidemarkConfig externalClientConfig,
                        CommitMode externalMode) {
        this.connection = connection;
        this.storage = storage;
        this.externalClientConfig = externalClientConfig;
        this.externalMode = externalMode;
    }

    /** An embedded HBase reached through {@code connection}, stored on {@code storage}; TSOs are started per mode. */
    public static BenchTarget embedded(Connection connection, EmbeddedStorage storage) {
        return new BenchTarget(connection, RunStorage.of(storage), null, null);
    }

    /**
     * An existing cluster reached through {@code connection}, and the TSO {@code clientConfig} names (its address, or
     * the lease in the cluster's ZooKeeper). Asks the TSO for its commit mode.
     *
     * @param where what the reports say about the cluster, e.g. its hbase-site.xml
     * @throws IOException when no TSO answers
     */
    public static BenchTarget external(Connection connection, TidemarkConfig clientConfig, String where)
            throws IOException {
        CommitMode mode;
        try (TsoClient client = NettyTsoClient.create(clientConfig, connection.getConfiguration())) {
            mode = client.incarnation().commitMode();
        }
        return new BenchTarget(connection, RunStorage.externalCluster(where + ", TSO in " + mode.configName()
                + " mode"), clientConfig, mode);
    }

    public Connection connection() {
        return connection;
    }

    public RunStorage storage() {
        return storage;
    }

    /** Whether the benchmark starts its own TSOs (embedded HBase), so that it can measure any commit mode. */
    public boolean startsTsos() {
        return externalClientConfig == null;
    }

    /** Whether {@link #tso} can give a TSO in {@code mode}. */
    public boolean serves(CommitMode mode) {
        return startsTsos() || externalMode == mode;
    }

    /** The commit mode of the existing cluster's TSO; only for {@code !startsTsos()}. */
    public CommitMode externalMode() {
        if (startsTsos()) {
            throw new IllegalStateException("an embedded target starts a TSO per commit mode");
        }
        return externalMode;
    }

    /**
     * A TSO in {@code mode} for the benchmark's clients: on an embedded HBase a new one, with its tables in
     * {@code namespace}, stopped by {@link Tso#close()}; on an existing cluster its running TSO, left running.
     *
     * @throws IllegalArgumentException when the existing cluster's TSO runs in another mode
     */
    public Tso tso(CommitMode mode, String namespace) throws IOException {
        if (!startsTsos()) {
            if (externalMode != mode) {
                throw new IllegalArgumentException("the TSO of the existing cluster runs in " + externalMode.configName()
                        + " mode, so " + mode.configName() + " cannot be measured there (an embedded HBase, "
                        + "--storage, starts a TSO of each mode)");
            }
            return new Tso(null, externalClientConfig, mode);
        }
        EmbeddedCluster cluster = EmbeddedCluster.builder().hbaseConnection(connection).tableNamespace(namespace)
                .commitMode(mode).start();
        return new Tso(cluster, cluster.clientConfig(), mode);
    }

    /** A TSO a benchmark's clients use; closing stops it if the benchmark started it. */
    public static final class Tso implements AutoCloseable {

        private final EmbeddedCluster started;
        private final TidemarkConfig clientConfig;
        private final CommitMode commitMode;

        private Tso(EmbeddedCluster started, TidemarkConfig clientConfig, CommitMode commitMode) {
            this.started = started;
            this.clientConfig = clientConfig;
            this.commitMode = commitMode;
        }

        /** What a client of this TSO needs: its address (or ZooKeeper lease) and table names. */
        public TidemarkConfig clientConfig() {
            return clientConfig;
        }

        public CommitMode commitMode() {
            return commitMode;
        }

        @Override
        public void close() {
            if (started != null) {
                started.close();
            }
        }
    }
}
