package io.tidemark.config;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The one home of Tidemark's configuration: every {@code tidemark.*} key, its default and its validation. Values come
 * from a Hadoop {@link Configuration}, so they can live in {@code tidemark-site.xml} (loaded from the classpath by
 * {@link #load()}) or in {@code hbase-site.xml}. docs/configuration.md documents every key listed here.
 */
public final class TidemarkConfig {

    /** Site file read from the classpath by {@link #load()}; its values win over {@link #HBASE_SITE_FILE}'s. */
    public static final String SITE_FILE = "tidemark-site.xml";
    /** HBase's site file: {@link #load()} reads {@code tidemark.*} keys from it too, as the docs promise. */
    public static final String HBASE_SITE_FILE = "hbase-site.xml";

    private static final Logger LOG = LoggerFactory.getLogger(TidemarkConfig.class);

    // --- TSO server ---
    public static final String TSO_HOST = "tidemark.tso.host";
    public static final String TSO_HOST_DEFAULT = "0.0.0.0";
    public static final String TSO_PORT = "tidemark.tso.port";
    public static final int TSO_PORT_DEFAULT = 54758;
    /** Cluster-wide: when unset, a TSO follows the mode stored with the timestamp table (else this default). */
    public static final String TSO_COMMIT_MODE = "tidemark.tso.commit-mode";
    public static final String TSO_COMMIT_MODE_DEFAULT = "low-latency";
    /** Cluster-wide: when unset, a TSO follows the level stored with the timestamp table (else this default). */
    public static final String TSO_CONFLICT_LEVEL = "tidemark.tso.conflict-level";
    public static final String TSO_CONFLICT_LEVEL_DEFAULT = "cell";
    public static final String TSO_CONFLICT_MAP_ENTRIES = "tidemark.tso.conflict-map.entries";
    public static final int TSO_CONFLICT_MAP_ENTRIES_DEFAULT = 4 * 1024 * 1024;
    public static final String TSO_TIMESTAMP_BLOCK = "tidemark.tso.timestamp-block";
    public static final long TSO_TIMESTAMP_BLOCK_DEFAULT = 1_000_000L;
    /** Largest request frame after HELLO; must hold a COMMIT of {@link #TSO_MAX_WRITE_SET} ids. */
    public static final String TSO_MAX_FRAME_BYTES = "tidemark.tso.max-frame-bytes";
    public static final int TSO_MAX_FRAME_BYTES_DEFAULT = 256 * 1024;
    /** Most write-set ids (and table ids) one COMMIT may carry; larger ones are refused before conflict detection. */
    public static final String TSO_MAX_WRITE_SET = "tidemark.tso.max-write-set";
    public static final int TSO_MAX_WRITE_SET_DEFAULT = 10_000;
    /** Client connections the TSO keeps open at most; further ones are refused at once. */
    public static final String TSO_MAX_CONNECTIONS = "tidemark.tso.max-connections";
    public static final int TSO_MAX_CONNECTIONS_DEFAULT = 4096;
    /** How long a new connection may take to complete TLS (when enabled) and HELLO. */
    public static final String TSO_HANDSHAKE_TIMEOUT_MS = "tidemark.tso.handshake-timeout-ms";
    public static final int TSO_HANDSHAKE_TIMEOUT_MS_DEFAULT = 10_000;
    /** A connection that sent no complete request and waits for no reply this long is closed. */
    public static final String TSO_IDLE_TIMEOUT_MS = "tidemark.tso.idle-timeout-ms";
    public static final int TSO_IDLE_TIMEOUT_MS_DEFAULT = 300_000;
    /** Replies a connection may have waiting to be sent (bytes) before the TSO stops reading its requests. */
    public static final String TSO_MAX_PENDING_REPLY_BYTES = "tidemark.tso.max-pending-reply-bytes";
    public static final int TSO_MAX_PENDING_REPLY_BYTES_DEFAULT = 64 * 1024;
    /** A connection whose pending replies stay above the bound this long (its client does not read) is closed. */
    public static final String TSO_REPLY_STALL_TIMEOUT_MS = "tidemark.tso.reply-stall-timeout-ms";
    public static final int TSO_REPLY_STALL_TIMEOUT_MS_DEFAULT = 30_000;
    /** Requests of one connection the TSO works on at once; beyond it, it stops reading that connection. */
    public static final String TSO_MAX_REQUESTS_IN_FLIGHT = "tidemark.tso.max-requests-in-flight";
    public static final int TSO_MAX_REQUESTS_IN_FLIGHT_DEFAULT = 10_000;
    /** Client connections from one address (IP) the TSO keeps open at most; further ones are refused at once. */
    public static final String TSO_MAX_CONNECTIONS_PER_ADDRESS = "tidemark.tso.max-connections-per-address";
    public static final int TSO_MAX_CONNECTIONS_PER_ADDRESS_DEFAULT = 128;
    /** New connections per second the TSO accepts from one address; beyond it, they are refused at once. */
    public static final String TSO_CONNECT_RATE_PER_ADDRESS = "tidemark.tso.connect-rate-per-address";
    public static final int TSO_CONNECT_RATE_PER_ADDRESS_DEFAULT = 100;
    /** At the connection limit, a new connection takes the slot of one idle at least this long (ms). */
    public static final String TSO_RECLAIM_IDLE_MS = "tidemark.tso.reclaim-idle-ms";
    public static final int TSO_RECLAIM_IDLE_MS_DEFAULT = 10_000;
    /** A request frame must arrive in full within this many ms of its first byte, else the connection is closed. */
    public static final String TSO_FRAME_TIMEOUT_MS = "tidemark.tso.frame-timeout-ms";
    public static final int TSO_FRAME_TIMEOUT_MS_DEFAULT = 10_000;
    /** Bytes of partly received frames the TSO buffers over all connections; beyond it, the oldest are closed. */
    public static final String TSO_MAX_BUFFERED_FRAME_BYTES = "tidemark.tso.max-buffered-frame-bytes";
    public static final int TSO_MAX_BUFFERED_FRAME_BYTES_DEFAULT = 64 * 1024 * 1024;
    /** Work one connection may cost the event loop per second, in ids (1 per BEGIN, 1 plus its ids per COMMIT). */
    public static final String TSO_MAX_IDS_PER_SECOND = "tidemark.tso.max-ids-per-second";
    public static final int TSO_MAX_IDS_PER_SECOND_DEFAULT = 500_000;
    /**
     * Who may raise fences: client certificate subjects separated by {@code ;}, and {@code anonymous} for every client
     * without a certificate; {@code none}: nobody.
     */
    public static final String TSO_FENCE_ALLOWED_CLIENTS = "tidemark.tso.fence.allowed-clients";
    public static final String TSO_FENCE_ALLOWED_CLIENTS_DEFAULT = "anonymous";
    /**
     * How long, in ms, a transaction may run: a COMMIT of a transaction that began longer ago is refused (TIMED_OUT)
     * and the low watermark rises past it. 0, the default, means no limit.
     */
    public static final String TSO_TRANSACTION_TIMEOUT_MS = "tidemark.tso.transaction-timeout-ms";
    public static final long TSO_TRANSACTION_TIMEOUT_MS_DEFAULT = 0L;
    public static final String TSO_BATCH_MAX_SIZE = "tidemark.tso.batch.max-size";
    public static final int TSO_BATCH_MAX_SIZE_DEFAULT = 1000;
    public static final String TSO_BATCH_FLUSH_TIMEOUT_MS = "tidemark.tso.batch.flush-timeout-ms";
    public static final int TSO_BATCH_FLUSH_TIMEOUT_MS_DEFAULT = 2;
    public static final String TSO_LOW_WATERMARK_PERSIST_MS = "tidemark.tso.low-watermark.persist-interval-ms";
    public static final int TSO_LOW_WATERMARK_PERSIST_MS_DEFAULT = 1000;
    /** Host name clients reach this TSO at, published in its lease; empty: tso.host, or this machine's name. */
    public static final String TSO_ADVERTISED_HOST = "tidemark.tso.advertised-host";
    public static final String TSO_ADVERTISED_HOST_DEFAULT = "";
    /** How long a renewal keeps the lease; a standby takes over after this plus the margin without renewals. */
    public static final String TSO_LEASE_PERIOD_MS = "tidemark.tso.lease.period-ms";
    public static final int TSO_LEASE_PERIOD_MS_DEFAULT = 2000;
    /** How often the active TSO renews its lease. */
    public static final String TSO_LEASE_RENEW_INTERVAL_MS = "tidemark.tso.lease.renew-interval-ms";
    public static final int TSO_LEASE_RENEW_INTERVAL_MS_DEFAULT = 250;
    /** Safety margin: the holder stops this long before its lease ends, a standby waits this long after it. */
    public static final String TSO_LEASE_MARGIN_MS = "tidemark.tso.lease.margin-ms";
    public static final int TSO_LEASE_MARGIN_MS_DEFAULT = 200;
    /** TCP port of the TSO's HTTP endpoint (/metrics, /health); 0 picks a free one, -1 turns the endpoint off. */
    public static final String TSO_HTTP_PORT = "tidemark.tso.http.port";
    public static final int TSO_HTTP_PORT_DEFAULT = 54759;
    /** Address the HTTP endpoint listens on; empty: the same as tidemark.tso.host. */
    public static final String TSO_HTTP_HOST = "tidemark.tso.http.host";
    public static final String TSO_HTTP_HOST_DEFAULT = "";
    /** A request to the HTTP endpoint must arrive in full within this many ms of its first byte, else it is closed. */
    public static final String TSO_HTTP_REQUEST_TIMEOUT_MS = "tidemark.tso.http.request-timeout-ms";
    public static final int TSO_HTTP_REQUEST_TIMEOUT_MS_DEFAULT = 5000;

    // --- TLS on the TSO port (server side) ---
    /** Whether the TSO requires TLS on its port; plaintext clients are then refused. */
    public static final String TSO_TLS_ENABLED = "tidemark.tso.tls.enabled";
    public static final boolean TSO_TLS_ENABLED_DEFAULT = false;
    /** PEM file with the TSO's certificate chain (its own certificate first); with {@link #TSO_TLS_KEY}. */
    public static final String TSO_TLS_CERT = "tidemark.tso.tls.cert";
    /** PEM file with the TSO's unencrypted PKCS#8 private key ({@code BEGIN PRIVATE KEY}). */
    public static final String TSO_TLS_KEY = "tidemark.tso.tls.key";
    /** Instead of cert and key: a PKCS#12 or JKS key store holding the TSO's key and certificate chain. */
    public static final String TSO_TLS_KEYSTORE = "tidemark.tso.tls.keystore";
    public static final String TSO_TLS_KEYSTORE_PASSWORD = "tidemark.tso.tls.keystore-password";
    /** PEM file of the CA certificates that sign client certificates (mutual TLS). */
    public static final String TSO_TLS_TRUST = "tidemark.tso.tls.trust";
    /** {@code none}: clients need no certificate; {@code require}: mutual TLS, clients must present one. */
    public static final String TSO_TLS_CLIENT_AUTH = "tidemark.tso.tls.client-auth";
    public static final String TSO_TLS_CLIENT_AUTH_DEFAULT = "none";
    /** With client-auth require: the client certificate subjects allowed, separated by {@code ;}; empty: any. */
    public static final String TSO_TLS_ALLOWED_CLIENTS = "tidemark.tso.tls.allowed-clients";

    // --- Kerberos (the TSO and the sweeper log in to a secured HBase from a keytab) ---
    /** Kerberos principal the TSO and sweeper log in as; {@code _HOST} is replaced by this machine's name. */
    public static final String SECURITY_PRINCIPAL = "tidemark.security.principal";
    /** Keytab file holding the principal's keys. */
    public static final String SECURITY_KEYTAB = "tidemark.security.keytab";
    /** How often the login checks its ticket and logs in again from the keytab before it expires. */
    public static final String SECURITY_RELOGIN_INTERVAL_MS = "tidemark.security.relogin-interval-ms";
    public static final int SECURITY_RELOGIN_INTERVAL_MS_DEFAULT = 60_000;

    // --- ZooKeeper (the HBase cluster's: hbase.zookeeper.quorum and clientPort) ---
    /** Znode under which TSOs keep their leases: {@code <root>/tso/<timestamp table>}. */
    public static final String ZOOKEEPER_ROOT = "tidemark.zookeeper.root";
    public static final String ZOOKEEPER_ROOT_DEFAULT = "/tidemark";

    // --- tables (shared by TSO, clients and coprocessors) ---
    public static final String COMMIT_TABLE = "tidemark.commit-table.name";
    public static final String COMMIT_TABLE_DEFAULT = "tidemark:commits";
    public static final String COMMIT_TABLE_REGIONS = "tidemark.commit-table.regions";
    public static final int COMMIT_TABLE_REGIONS_DEFAULT = 4;
    public static final String COMMIT_TABLE_WRITE_PARALLELISM = "tidemark.commit-table.write-parallelism";
    public static final int COMMIT_TABLE_WRITE_PARALLELISM_DEFAULT = 4;
    public static final String COMMIT_TABLE_GUARD = "tidemark.commit-table.guard";
    public static final String COMMIT_TABLE_GUARD_DEFAULT = "false";
    public static final String TIMESTAMP_TABLE = "tidemark.timestamp-table.name";
    public static final String TIMESTAMP_TABLE_DEFAULT = "tidemark:timestamps";

    // --- client ---
    /** A fixed {@code host:port}; when unset (the default) clients follow the TSO lease in ZooKeeper. */
    public static final String CLIENT_TSO_ADDRESS = "tidemark.client.tso.address";
    public static final String CLIENT_TSO_CONNECTIONS = "tidemark.client.tso.connections";
    public static final int CLIENT_TSO_CONNECTIONS_DEFAULT = 1;
    public static final String CLIENT_TSO_TIMEOUT_MS = "tidemark.client.tso.request-timeout-ms";
    public static final int CLIENT_TSO_TIMEOUT_MS_DEFAULT = 5000;
    public static final String CLIENT_TSO_RETRY_BACKOFF_MS = "tidemark.client.tso.retry-backoff-ms";
    public static final int CLIENT_TSO_RETRY_BACKOFF_MS_DEFAULT = 100;
    /** Whether the client speaks TLS to the TSO (it must, when the TSO sets {@link #TSO_TLS_ENABLED}). */
    public static final String CLIENT_TSO_TLS_ENABLED = "tidemark.client.tso.tls.enabled";
    public static final boolean CLIENT_TSO_TLS_ENABLED_DEFAULT = false;
    /** PEM file of the CA certificates the client trusts for the TSO's certificate; unset: the JDK's defaults. */
    public static final String CLIENT_TSO_TLS_TRUST = "tidemark.client.tso.tls.trust";
    /** Whether the TSO's certificate must name the host the client connects to (recommended). */
    public static final String CLIENT_TSO_TLS_VERIFY_HOSTNAME = "tidemark.client.tso.tls.verify-hostname";
    public static final boolean CLIENT_TSO_TLS_VERIFY_HOSTNAME_DEFAULT = true;
    /** Mutual TLS: PEM file with the client's certificate chain; with {@link #CLIENT_TSO_TLS_KEY}. */
    public static final String CLIENT_TSO_TLS_CERT = "tidemark.client.tso.tls.cert";
    /** Mutual TLS: PEM file with the client's unencrypted PKCS#8 private key. */
    public static final String CLIENT_TSO_TLS_KEY = "tidemark.client.tso.tls.key";
    /** Mutual TLS, instead of cert and key: a PKCS#12 or JKS key store with the client's key and chain. */
    public static final String CLIENT_TSO_TLS_KEYSTORE = "tidemark.client.tso.tls.keystore";
    public static final String CLIENT_TSO_TLS_KEYSTORE_PASSWORD = "tidemark.client.tso.tls.keystore-password";
    /** When set, the client refuses a cluster with another conflict level; when unset, it follows the cluster. */
    public static final String CLIENT_CONFLICT_LEVEL = "tidemark.client.conflict-level";
    public static final String CLIENT_POST_COMMIT = "tidemark.client.post-commit";
    public static final String CLIENT_POST_COMMIT_DEFAULT = "async";
    public static final String CLIENT_MIN_VERSIONS = "tidemark.client.min-family-versions";
    public static final int CLIENT_MIN_VERSIONS_DEFAULT = Integer.MAX_VALUE;
    /**
     * Longest time, in ms, from asking for a commit (COMMIT sent by a client; the commit decided, for a batched-mode
     * TSO) to the end of the last attempt to write its commit record. Past it, the outcome is settled by invalidating
     * the transaction. The commit-table sweeper's proof that a marker may go rests on it.
     */
    public static final String CLIENT_COMMIT_RECORD_TIMEOUT_MS = "tidemark.client.commit-record-timeout-ms";
    public static final long CLIENT_COMMIT_RECORD_TIMEOUT_MS_DEFAULT = 30_000L;
    /**
     * How long one fast-path operation may take, all attempts included; a FastPathTable also uses a stream id for new
     * operations for at most this long. Must fit the region servers' operation-record TTL (docs/fast-path.md).
     */
    public static final String CLIENT_FASTPATH_OPERATION_TIMEOUT_MS = "tidemark.client.fastpath.operation-timeout-ms";
    public static final int CLIENT_FASTPATH_OPERATION_TIMEOUT_MS_DEFAULT = 60_000;
    /**
     * Name of a TransactionManager's metrics in JMX ({@code tidemark.client:manager=<name>,name=<metric>}); a name
     * already used by another manager of the JVM gets a suffix ({@code -2}, {@code -3}, ...).
     */
    public static final String CLIENT_METRICS_NAME = "tidemark.client.metrics.name";
    public static final String CLIENT_METRICS_NAME_DEFAULT = "default";

    // --- fast-path coprocessor (region servers; a table's coprocessor properties override the site files) ---
    /** How a generic write detects a newer fast-path write: per row (default) or the paper's region-wide clock. */
    public static final String FASTPATH_WRITE_CHECK = "tidemark.fastpath.write-check";
    public static final String FASTPATH_WRITE_CHECK_DEFAULT = "row";
    /** How long a generic read waits for fast-path writes minted below its snapshot to become visible. */
    public static final String FASTPATH_READ_WAIT_MS = "tidemark.fastpath.read-wait-ms";
    public static final int FASTPATH_READ_WAIT_MS_DEFAULT = 30_000;
    /** How long a region keeps a client stream's fast-path operation record, which makes retried writes run once. */
    public static final String FASTPATH_OPERATION_RECORD_TTL_MS = "tidemark.fastpath.operation-record-ttl-ms";
    public static final long FASTPATH_OPERATION_RECORD_TTL_MS_DEFAULT = 600_000L;

    // --- table administration and coprocessors ---
    /**
     * Where region servers load the Tidemark coprocessor jar from when TidemarkAdmin attaches the coprocessors (for
     * example {@code hdfs:///hbase/lib/tidemark-coprocessor.jar}); empty means the region servers' classpath.
     */
    public static final String ADMIN_COPROCESSOR_JAR = "tidemark.admin.coprocessor-jar";
    public static final String ADMIN_COPROCESSOR_JAR_DEFAULT = "";
    /**
     * Comma-separated tables that look transactional (a family keeping as many versions as transactional tables do,
     * or a Tidemark coprocessor) but never hold transactional data: the commit-table sweeper and
     * {@code TransactionManager.outcome} leave them alone instead of refusing to run while they are not marked.
     */
    public static final String ADMIN_NON_TRANSACTIONAL_TABLES = "tidemark.admin.non-transactional-tables";

    // --- commit-table sweeper ---
    /** A committed record this old (by its write time) belongs to a client that died before post-commit. */
    public static final String SWEEPER_COMMITTED_AGE_MS = "tidemark.sweeper.committed-age-ms";
    public static final long SWEEPER_COMMITTED_AGE_MS_DEFAULT = 60_000L;
    /**
     * An invalidation marker this old (and proven final: its writer started at or below the low watermark) is rolled
     * back: the writer's tentative cells and then the marker are removed. Must exceed the commit-record timeout.
     */
    public static final String SWEEPER_INVALIDATED_AGE_MS = "tidemark.sweeper.invalidated-age-ms";
    public static final long SWEEPER_INVALIDATED_AGE_MS_DEFAULT = 3_600_000L;
    /**
     * How long, in ms, beyond the commit-record timeout a sweep pass waits after reading the low watermark before it
     * removes markers: covers a commit-record write that a region server received before the writer's deadline and
     * applies after it.
     */
    public static final String SWEEPER_MARKER_MARGIN_MS = "tidemark.sweeper.marker-margin-ms";
    public static final long SWEEPER_MARKER_MARGIN_MS_DEFAULT = 5_000L;

    /** Records handled per sweep pass (bounds the sweeper's memory). */
    public static final String SWEEPER_BATCH = "tidemark.sweeper.batch";
    public static final int SWEEPER_BATCH_DEFAULT = 10_000;

    private final Configuration conf;

    public TidemarkConfig(Configuration conf) {
        this.conf = conf;
    }

    /**
     * The settings of the site files on the classpath: {@value #HBASE_SITE_FILE}, then {@value #SITE_FILE}, whose
     * values win; every key neither sets takes its default. Logs a warning when neither file is on the classpath,
     * since a client then looks for the TSO in the ZooKeeper its HBase connection names, often the default one.
     */
    public static TidemarkConfig load() {
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        return load(loader != null ? loader : TidemarkConfig.class.getClassLoader());
    }

    static TidemarkConfig load(ClassLoader loader) {
        Configuration conf = new Configuration(false);
        conf.setClassLoader(loader);
        List<String> found = siteFilesOn(loader);
        found.forEach(conf::addResource);
        if (found.isEmpty()) {
            LOG.warn("Neither {} nor {} is on the classpath: every tidemark.* setting takes its default, and clients"
                    + " look for the TSO in the ZooKeeper their HBase connection names (docs/configuration.md)",
                    HBASE_SITE_FILE, SITE_FILE);
        }
        return new TidemarkConfig(conf);
    }

    /** The site files {@link #load()} reads from {@code loader}, in the order they apply. */
    static List<String> siteFilesOn(ClassLoader loader) {
        List<String> found = new ArrayList<>();
        for (String file : new String[] {HBASE_SITE_FILE, SITE_FILE}) {
            if (loader.getResource(file) != null) {
                found.add(file);
            }
        }
        return found;
    }

    public Configuration hadoopConfiguration() {
        return conf;
    }

    /** Whether {@code key} has a value (a non-blank one), as opposed to falling back to a default. */
    public boolean isSet(String key) {
        String value = conf.getTrimmed(key);
        return value != null && !value.isEmpty();
    }

    public String getString(String key, String defaultValue) {
        String value = conf.getTrimmed(key, defaultValue);
        if (value == null || value.isEmpty()) {
            throw new InvalidConfigurationException(key, String.valueOf(value), "a non-empty string");
        }
        return value;
    }

    /** A whole number in [min, max]. */
    public long getLong(String key, long defaultValue, long min, long max) {
        String raw = conf.getTrimmed(key);
        if (raw == null) {
            return defaultValue;
        }
        long value;
        try {
            value = Long.parseLong(raw.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new InvalidConfigurationException(key, raw, "a whole number from " + min + " to " + max);
        }
        if (value < min || value > max) {
            throw new InvalidConfigurationException(key, raw, "a whole number from " + min + " to " + max);
        }
        return value;
    }

    public int getInt(String key, int defaultValue, int min, int max) {
        return (int) getLong(key, defaultValue, min, max);
    }

    /** One of {@code allowed}, compared without regard to case; returned in lower case. */
    public String getChoice(String key, String defaultValue, String... allowed) {
        String value = getString(key, defaultValue).toLowerCase(Locale.ROOT);
        for (String a : allowed) {
            if (a.equals(value)) {
                return value;
            }
        }
        throw new InvalidConfigurationException(key, value, "one of " + String.join(", ", allowed));
    }

    /** {@code true} or {@code false} (any case); {@code defaultValue} when unset. */
    public boolean getBoolean(String key, boolean defaultValue) {
        if (!isSet(key)) {
            return defaultValue;
        }
        return Boolean.parseBoolean(getChoice(key, Boolean.toString(defaultValue), "true", "false"));
    }

    /** {@code key}'s value when set, else {@code defaultValue} (which may be empty). */
    public String getOptionalString(String key, String defaultValue) {
        return isSet(key) ? conf.getTrimmed(key) : defaultValue;
    }

    /** An HBase table name, {@code namespace:table} or {@code table}. */
    public TableName getTableName(String key, String defaultValue) {
        String value = getString(key, defaultValue);
        try {
            return TableName.valueOf(value);
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigurationException(key, value, "an HBase table name, optionally namespace:table");
        }
    }

    /**
     * A comma-separated list of HBase table names ({@code namespace:table} or {@code table}); empty when the key is
     * unset or blank.
     */
    public List<TableName> getTableNames(String key) {
        List<TableName> tables = new ArrayList<>();
        for (String name : conf.getTrimmedStrings(key)) {
            if (name.isEmpty()) {
                continue;
            }
            try {
                tables.add(TableName.valueOf(name));
            } catch (IllegalArgumentException e) {
                throw new InvalidConfigurationException(key, name,
                        "a comma-separated list of HBase table names, each optionally namespace:table");
            }
        }
        return tables;
    }

    /** A {@code host:port} pair. */
    public HostAndPort getHostAndPort(String key, String defaultValue) {
        String value = getString(key, defaultValue);
        try {
            return HostAndPort.parse(value);
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigurationException(key, value, "host:port with a port from 1 to 65535");
        }
    }

    public void set(String key, String value) {
        conf.set(key, value);
    }
}
