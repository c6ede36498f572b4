package io.tidemark.embedded;

import io.tidemark.config.HostAndPort;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.tso.TsoServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Everything a Tidemark application talks to, in one JVM: an HBase (embedded, or one the caller already has) and a
 * TSO in the chosen commit mode, which creates the Tidemark tables it needs. {@link #clientConfig()} is what a client
 * of this cluster needs. Closing stops the TSO, then the HBase if this cluster started it.
 */
public final class EmbeddedCluster implements AutoCloseable {

    /**
     * Gives a TSO that shares its JVM with HBase, ZooKeeper and clients a lease of {@value #PATIENT_LEASE_PERIOD_MS}
     * ms instead of the production default. Such a JVM can stall for seconds on a loaded machine, and a TSO that
     * cannot renew in time stops serving; with no standby to take over, a long lease costs only a wait when a TSO on
     * the same tables starts after a crash of this one (a closed TSO gives its lease up).
     */
    public static void usePatientLease(TidemarkConfig config) {
        config.set(TidemarkConfig.TSO_LEASE_PERIOD_MS, Integer.toString(PATIENT_LEASE_PERIOD_MS));
    }

    /** Namespace of the Tidemark tables unless the builder names another. */
    public static final String DEFAULT_NAMESPACE = "tidemark";
    /** Lease of an embedded TSO (see {@link #usePatientLease}). */
    public static final int PATIENT_LEASE_PERIOD_MS = 10_000;

    /** Where the TSO listens unless the builder says otherwise: this machine only, like the embedded HBase. */
    public static final String DEFAULT_TSO_HOST = "127.0.0.1";

    private final EmbeddedHBase ownedHBase;
    private final Connection connection;
    private final TsoServer tso;
    private final CommitMode commitMode;
    private final TidemarkConfig clientConfig;

    private EmbeddedCluster(EmbeddedHBase ownedHBase, Connection connection, TsoServer tso, CommitMode commitMode,
                            TidemarkConfig clientConfig) {
        this.ownedHBase = ownedHBase;
        this.connection = connection;
        this.tso = tso;
        this.commitMode = commitMode;
        this.clientConfig = clientConfig;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Connection connection() {
        return connection;
    }

    /** Configuration for clients: the TSO address and the table names this cluster uses. */
    public TidemarkConfig clientConfig() {
        return clientConfig;
    }

    /** Where clients reach the TSO: its bound address (loopback unless the builder chose another host). */
    public HostAndPort tsoAddress() {
        return tso.advertisedAddress();
    }

    public CommitMode commitMode() {
        return commitMode;
    }

    /** The running TSO, e.g. for its metrics. */
    public TsoServer tso() {
        return tso;
    }

    /** The embedded HBase, or null when the cluster runs on a connection the caller passed in. */
    public EmbeddedHBase embeddedHBase() {
        return ownedHBase;
    }

    @Override
    public void close() {
        try {
            tso.close();
        } catch (RuntimeException e) {
            // Stopping is best effort; HBase must still be stopped below.
        }
        if (ownedHBase != null) {
            ownedHBase.close();
        }
    }

    /** Options of an {@link EmbeddedCluster}; every one has a default. */
    public static final class Builder {

        private CommitMode commitMode = CommitMode.LOW_LATENCY;
        private int tsoPort;
        private String tsoHost = DEFAULT_TSO_HOST;
        private String namespace = DEFAULT_NAMESPACE;
        private Path dataDirectory;
        private EmbeddedStorage storage = EmbeddedStorage.DEFAULT;
        private Connection sharedConnection;
        private final Map<String, String> settings = new LinkedHashMap<>();

        private Builder() {
        }

        public Builder commitMode(CommitMode mode) {
            this.commitMode = mode;
            return this;
        }

        /** TCP port of the TSO; 0 (the default) picks a free one. */
        public Builder tsoPort(int port) {
            if (port < 0 || port > 65535) {
                throw new IllegalArgumentException("TSO port must be from 0 to 65535, was " + port);
            }
            this.tsoPort = port;
            return this;
        }

        /**
         * Address the TSO listens on, {@value #DEFAULT_TSO_HOST} by default; {@code 0.0.0.0} listens on every
         * interface, which lets other machines reach the TSO.
         */
        public Builder tsoHost(String host) {
            if (host == null || host.isBlank()) {
                throw new IllegalArgumentException("TSO host must not be empty");
            }
            this.tsoHost = host;
            return this;
        }

        /**
         * HBase namespace of the commit and timestamp tables ({@value #DEFAULT_NAMESPACE} by default). Clusters that
         * share an HBase but must not share state (e.g. one per commit mode in a test) use different namespaces.
         */
        public Builder tableNamespace(String namespace) {
            if (namespace == null || namespace.isEmpty()) {
                throw new IllegalArgumentException("table namespace must not be empty");
            }
            this.namespace = namespace;
            return this;
        }

        /** Where the embedded HBase keeps its data; a temporary directory by default. */
        public Builder dataDirectory(Path directory) {
            this.dataDirectory = directory;
            return this;
        }

        /** Where the embedded HBase keeps its root directory and WAL ({@link EmbeddedStorage#DEFAULT} by default). */
        public Builder storage(EmbeddedStorage storage) {
            if (storage == null) {
                throw new IllegalArgumentException("storage must not be null");
            }
            this.storage = storage;
            return this;
        }

        /** Runs on an HBase the caller already has (and keeps running after close) instead of starting one. */
        public Builder hbaseConnection(Connection connection) {
            this.sharedConnection = connection;
            return this;
        }

        /**
         * Any other {@code tidemark.*} setting for the TSO and its clients. The TSO's HTTP endpoint listens on a free
         * port unless {@code tidemark.tso.http.port} is set here (-1 turns it off).
         */
        public Builder set(String key, String value) {
            settings.put(key, value);
            return this;
        }

        public EmbeddedCluster start() throws IOException {
            EmbeddedHBase hbase = null;
            Connection connection = sharedConnection;
            if (connection == null) {
                hbase = dataDirectory == null ? EmbeddedHBase.start(storage)
                        : EmbeddedHBase.start(dataDirectory, storage);
                connection = hbase.connection();
            }
            try {
                TidemarkConfig serverConfig = tidemarkConfig();
                serverConfig.set(TidemarkConfig.TSO_HOST, tsoHost);
                serverConfig.set(TidemarkConfig.TSO_PORT, Integer.toString(tsoPort));
                if (!settings.containsKey(TidemarkConfig.TSO_HTTP_PORT)) {
                    // Never the production default: embedded clusters of parallel runs must not collide.
                    serverConfig.set(TidemarkConfig.TSO_HTTP_PORT, "0");
                }
                serverConfig.set(TidemarkConfig.TSO_COMMIT_MODE, commitMode.configName());
                // The caller chose the mode: the embedded cluster's tables follow it, whatever an earlier run used.
                TsoServer tso = TsoServer.builder().config(serverConfig).hbaseConnection(connection)
                        .reconfigureCluster(true).build();
                tso.start();
                TidemarkConfig clientConfig = tidemarkConfig();
                clientConfig.set(TidemarkConfig.CLIENT_TSO_ADDRESS, tso.advertisedAddress().toString());
                return new EmbeddedCluster(hbase, connection, tso, commitMode, clientConfig);
            } catch (IOException | RuntimeException e) {
                if (hbase != null) {
                    hbase.close();
                }
                throw e;
            }
        }

        private TidemarkConfig tidemarkConfig() {
            TidemarkConfig config = new TidemarkConfig(new Configuration(false));
            usePatientLease(config);
            config.set(TidemarkConfig.COMMIT_TABLE, namespace + ":commits");
            config.set(TidemarkConfig.TIMESTAMP_TABLE, namespace + ":timestamps");
            settings.forEach(config.hadoopConfiguration()::set);
            return config;
        }
    }
}
