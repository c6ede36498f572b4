package io.tidemark.tso;

import io.tidemark.committable.CommitTableSettings;
import io.tidemark.config.InvalidConfigurationException;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.lease.TsoLeaseNode;
import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.MessageCodec;
import io.tidemark.protocol.Protocol;
import io.tidemark.tso.conflict.ConflictMap;
import io.tidemark.tso.lease.LeaseTiming;
import io.tidemark.writeset.ConflictLevel;
import org.apache.hadoop.hbase.TableName;

import java.time.Duration;

/**
 * The TSO's configuration, read and validated once from {@link TidemarkConfig}: a bad value fails the build of the
 * server with an {@link InvalidConfigurationException} naming the key.
 */
public final class TsoSettings {

    /** Largest timestamp block: keeps block arithmetic far from overflow. */
    static final long MAX_TIMESTAMP_BLOCK = 1L << 40;

    /** Largest write-set cap: a COMMIT of this many ids already stalls the event loop for seconds. */
    static final int MAX_WRITE_SET = 1 << 24;

    private final String host;
    private final int port;
    private final CommitMode commitMode;
    private final ConflictLevel conflictLevel;
    private final int conflictMapEntries;
    private final long timestampBlock;
    private final int maxFrameBytes;
    private final int maxWriteSet;
    private final long transactionTimeoutMs;
    private final int maxConnections;
    private final int handshakeTimeoutMs;
    private final int idleTimeoutMs;
    private final int maxPendingReplyBytes;
    private final int replyStallTimeoutMs;
    private final int maxRequestsInFlight;
    private final int maxConnectionsPerAddress;
    private final int connectRatePerAddress;
    private final int reclaimIdleMs;
    private final int frameTimeoutMs;
    private final int maxBufferedFrameBytes;
    private final int maxIdsPerSecond;
    private final ClientPrincipals fenceAllowedClients;
    private final TsoTlsSettings tls;
    private final int batchMaxSize;
    private final int batchFlushTimeoutMs;
    private final int lowWatermarkPersistIntervalMs;
    private final CommitTableSettings commitTable;
    private final TableName timestampTable;
    private final String advertisedHost;
    private final LeaseTiming leaseTiming;
    private final String leasePath;
    private final int httpPort;
    private final String httpHost;
    private final int httpRequestTimeoutMs;

    public TsoSettings(TidemarkConfig config) {
        host = config.getString(TidemarkConfig.TSO_HOST, TidemarkConfig.TSO_HOST_DEFAULT);
        port = config.getInt(TidemarkConfig.TSO_PORT, TidemarkConfig.TSO_PORT_DEFAULT, 0, 65535);
        commitMode = config.isSet(TidemarkConfig.TSO_COMMIT_MODE)
                ? CommitMode.fromConfigName(config.getChoice(TidemarkConfig.TSO_COMMIT_MODE,
                        TidemarkConfig.TSO_COMMIT_MODE_DEFAULT, CommitMode.LOW_LATENCY.configName(),
                        CommitMode.BATCHED.configName()))
                : null;
        conflictLevel = config.isSet(TidemarkConfig.TSO_CONFLICT_LEVEL)
                ? ConflictLevel.fromConfigName(config.getChoice(TidemarkConfig.TSO_CONFLICT_LEVEL,
                        TidemarkConfig.TSO_CONFLICT_LEVEL_DEFAULT, ConflictLevel.CELL.configName(),
                        ConflictLevel.ROW.configName()))
                : null;
        conflictMapEntries = config.getInt(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES,
                TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES_DEFAULT, ConflictMap.WAYS, ConflictMap.MAX_ENTRIES);
        timestampBlock = config.getLong(TidemarkConfig.TSO_TIMESTAMP_BLOCK, TidemarkConfig.TSO_TIMESTAMP_BLOCK_DEFAULT,
                1, MAX_TIMESTAMP_BLOCK);
        maxWriteSet = config.getInt(TidemarkConfig.TSO_MAX_WRITE_SET, TidemarkConfig.TSO_MAX_WRITE_SET_DEFAULT,
                1, MAX_WRITE_SET);
        transactionTimeoutMs = config.getLong(TidemarkConfig.TSO_TRANSACTION_TIMEOUT_MS,
                TidemarkConfig.TSO_TRANSACTION_TIMEOUT_MS_DEFAULT, 0, Long.MAX_VALUE / 1_000_000L);
        maxFrameBytes = config.getInt(TidemarkConfig.TSO_MAX_FRAME_BYTES, TidemarkConfig.TSO_MAX_FRAME_BYTES_DEFAULT,
                Protocol.MAX_HELLO_FRAME_BYTES, Integer.MAX_VALUE);
        long largestCommit = MessageCodec.commitBodyBytes(maxWriteSet, maxWriteSet);
        if (maxFrameBytes < largestCommit) {
            throw new InvalidConfigurationException(TidemarkConfig.TSO_MAX_FRAME_BYTES, Integer.toString(maxFrameBytes),
                    "at least " + largestCommit + ", the size of a COMMIT with " + TidemarkConfig.TSO_MAX_WRITE_SET
                            + " (" + maxWriteSet + ") write-set and table ids");
        }
        maxConnections = config.getInt(TidemarkConfig.TSO_MAX_CONNECTIONS, TidemarkConfig.TSO_MAX_CONNECTIONS_DEFAULT,
                1, 1_000_000);
        handshakeTimeoutMs = config.getInt(TidemarkConfig.TSO_HANDSHAKE_TIMEOUT_MS,
                TidemarkConfig.TSO_HANDSHAKE_TIMEOUT_MS_DEFAULT, 10, 600_000);
        idleTimeoutMs = config.getInt(TidemarkConfig.TSO_IDLE_TIMEOUT_MS, TidemarkConfig.TSO_IDLE_TIMEOUT_MS_DEFAULT,
                100, 86_400_000);
        maxPendingReplyBytes = config.getInt(TidemarkConfig.TSO_MAX_PENDING_REPLY_BYTES,
                TidemarkConfig.TSO_MAX_PENDING_REPLY_BYTES_DEFAULT, 1024, 1 << 30);
        replyStallTimeoutMs = config.getInt(TidemarkConfig.TSO_REPLY_STALL_TIMEOUT_MS,
                TidemarkConfig.TSO_REPLY_STALL_TIMEOUT_MS_DEFAULT, 10, 3_600_000);
        maxRequestsInFlight = config.getInt(TidemarkConfig.TSO_MAX_REQUESTS_IN_FLIGHT,
                TidemarkConfig.TSO_MAX_REQUESTS_IN_FLIGHT_DEFAULT, 1, 10_000_000);
        maxConnectionsPerAddress = config.getInt(TidemarkConfig.TSO_MAX_CONNECTIONS_PER_ADDRESS,
                TidemarkConfig.TSO_MAX_CONNECTIONS_PER_ADDRESS_DEFAULT, 1, 1_000_000);
        connectRatePerAddress = config.getInt(TidemarkConfig.TSO_CONNECT_RATE_PER_ADDRESS,
                TidemarkConfig.TSO_CONNECT_RATE_PER_ADDRESS_DEFAULT, 1, 1_000_000);
        reclaimIdleMs = config.getInt(TidemarkConfig.TSO_RECLAIM_IDLE_MS, TidemarkConfig.TSO_RECLAIM_IDLE_MS_DEFAULT,
                10, 86_400_000);
        frameTimeoutMs = config.getInt(TidemarkConfig.TSO_FRAME_TIMEOUT_MS,
                TidemarkConfig.TSO_FRAME_TIMEOUT_MS_DEFAULT, 10, 600_000);
        maxBufferedFrameBytes = config.getInt(TidemarkConfig.TSO_MAX_BUFFERED_FRAME_BYTES,
                TidemarkConfig.TSO_MAX_BUFFERED_FRAME_BYTES_DEFAULT, 1024, Integer.MAX_VALUE);
        if (maxBufferedFrameBytes < maxFrameBytes) {
            throw new InvalidConfigurationException(TidemarkConfig.TSO_MAX_BUFFERED_FRAME_BYTES,
                    Integer.toString(maxBufferedFrameBytes), "at least " + TidemarkConfig.TSO_MAX_FRAME_BYTES + " ("
                            + maxFrameBytes + "), or no frame of that size could ever be received");
        }
        maxIdsPerSecond = config.getInt(TidemarkConfig.TSO_MAX_IDS_PER_SECOND,
                TidemarkConfig.TSO_MAX_IDS_PER_SECOND_DEFAULT, 1000, Integer.MAX_VALUE);
        tls = new TsoTlsSettings(config);
        String fencers = config.getString(TidemarkConfig.TSO_FENCE_ALLOWED_CLIENTS,
                TidemarkConfig.TSO_FENCE_ALLOWED_CLIENTS_DEFAULT);
        fenceAllowedClients = ClientPrincipals.parse(TidemarkConfig.TSO_FENCE_ALLOWED_CLIENTS, fencers, true);
        if (!fenceAllowedClients.subjects().isEmpty() && !tls.clientCertificateRequired()) {
            // Refused rather than ignored: the operator believes fences are kept to those clients.
            throw new InvalidConfigurationException(TidemarkConfig.TSO_FENCE_ALLOWED_CLIENTS, fencers,
                    ClientPrincipals.ANONYMOUS + " or " + ClientPrincipals.NOBODY + " unless "
                            + TidemarkConfig.TSO_TLS_CLIENT_AUTH + " is require (without client certificates there is"
                            + " no subject to check)");
        }
        batchMaxSize = config.getInt(TidemarkConfig.TSO_BATCH_MAX_SIZE, TidemarkConfig.TSO_BATCH_MAX_SIZE_DEFAULT,
                1, 1_000_000);
        batchFlushTimeoutMs = config.getInt(TidemarkConfig.TSO_BATCH_FLUSH_TIMEOUT_MS,
                TidemarkConfig.TSO_BATCH_FLUSH_TIMEOUT_MS_DEFAULT, 0, 60_000);
        lowWatermarkPersistIntervalMs = config.getInt(TidemarkConfig.TSO_LOW_WATERMARK_PERSIST_MS,
                TidemarkConfig.TSO_LOW_WATERMARK_PERSIST_MS_DEFAULT, 1, 3_600_000);
        commitTable = new CommitTableSettings(config);
        timestampTable = config.getTableName(TidemarkConfig.TIMESTAMP_TABLE, TidemarkConfig.TIMESTAMP_TABLE_DEFAULT);
        advertisedHost = config.getOptionalString(TidemarkConfig.TSO_ADVERTISED_HOST,
                TidemarkConfig.TSO_ADVERTISED_HOST_DEFAULT);
        int period = config.getInt(TidemarkConfig.TSO_LEASE_PERIOD_MS, TidemarkConfig.TSO_LEASE_PERIOD_MS_DEFAULT,
                100, 600_000);
        int renew = config.getInt(TidemarkConfig.TSO_LEASE_RENEW_INTERVAL_MS,
                TidemarkConfig.TSO_LEASE_RENEW_INTERVAL_MS_DEFAULT, 10, 600_000);
        int margin = config.getInt(TidemarkConfig.TSO_LEASE_MARGIN_MS, TidemarkConfig.TSO_LEASE_MARGIN_MS_DEFAULT,
                0, 600_000);
        if (renew + margin >= period) {
            throw new InvalidConfigurationException(TidemarkConfig.TSO_LEASE_PERIOD_MS, Integer.toString(period),
                    "more than " + TidemarkConfig.TSO_LEASE_RENEW_INTERVAL_MS + " (" + renew + ") plus "
                            + TidemarkConfig.TSO_LEASE_MARGIN_MS + " (" + margin + ")");
        }
        leaseTiming = new LeaseTiming(Duration.ofMillis(period), Duration.ofMillis(renew), Duration.ofMillis(margin));
        String root = config.getString(TidemarkConfig.ZOOKEEPER_ROOT, TidemarkConfig.ZOOKEEPER_ROOT_DEFAULT);
        if (!root.startsWith("/")) {
            throw new InvalidConfigurationException(TidemarkConfig.ZOOKEEPER_ROOT, root, "a znode path starting with /");
        }
        leasePath = TsoLeaseNode.path(root, timestampTable.getNameAsString());
        httpPort = config.getInt(TidemarkConfig.TSO_HTTP_PORT, TidemarkConfig.TSO_HTTP_PORT_DEFAULT, -1, 65535);
        String configuredHttpHost = config.getOptionalString(TidemarkConfig.TSO_HTTP_HOST,
                TidemarkConfig.TSO_HTTP_HOST_DEFAULT);
        httpHost = configuredHttpHost.isEmpty() ? host : configuredHttpHost;
        httpRequestTimeoutMs = config.getInt(TidemarkConfig.TSO_HTTP_REQUEST_TIMEOUT_MS,
                TidemarkConfig.TSO_HTTP_REQUEST_TIMEOUT_MS_DEFAULT, 10, 600_000);
    }

    public String host() {
        return host;
    }

    /** 0 binds an ephemeral port. */
    public int port() {
        return port;
    }

    /** The configured commit mode, or null when unset (the TSO then follows the cluster's). */
    public CommitMode commitMode() {
        return commitMode;
    }

    /** The configured conflict level, or null when unset (the TSO then follows the cluster's). */
    public ConflictLevel conflictLevel() {
        return conflictLevel;
    }

    public int conflictMapEntries() {
        return conflictMapEntries;
    }

    public long timestampBlock() {
        return timestampBlock;
    }

    public int maxFrameBytes() {
        return maxFrameBytes;
    }

    /** Most write-set ids (and table ids) one COMMIT may carry. */
    public int maxWriteSet() {
        return maxWriteSet;
    }

    /** How long a transaction may run before its COMMIT is refused; 0 for no limit. */
    public long transactionTimeoutMs() {
        return transactionTimeoutMs;
    }

    /** Most client connections open at once; further ones are refused at once. */
    public int maxConnections() {
        return maxConnections;
    }

    /** How long a new connection may take to complete TLS (when enabled) and HELLO. */
    public int handshakeTimeoutMs() {
        return handshakeTimeoutMs;
    }

    /** A connection that sent no complete request and waits for no reply this long is closed. */
    public int idleTimeoutMs() {
        return idleTimeoutMs;
    }

    /** Unsent reply bytes of one connection above which the TSO stops reading its requests. */
    public int maxPendingReplyBytes() {
        return maxPendingReplyBytes;
    }

    /** How long a connection's replies may stay above {@link #maxPendingReplyBytes()} before it is closed. */
    public int replyStallTimeoutMs() {
        return replyStallTimeoutMs;
    }

    /** Requests of one connection worked on at once; beyond it, the TSO stops reading that connection. */
    public int maxRequestsInFlight() {
        return maxRequestsInFlight;
    }

    /** Most connections open at once from one address. */
    public int maxConnectionsPerAddress() {
        return maxConnectionsPerAddress;
    }

    /** New connections per second accepted from one address. */
    public int connectRatePerAddress() {
        return connectRatePerAddress;
    }

    /** At the connection limit, a connection idle at least this long gives its slot to a new one. */
    public int reclaimIdleMs() {
        return reclaimIdleMs;
    }

    /** How long a request frame may take to arrive in full, from its first byte. */
    public int frameTimeoutMs() {
        return frameTimeoutMs;
    }

    /** Bytes of partly received frames buffered over all connections at most. */
    public int maxBufferedFrameBytes() {
        return maxBufferedFrameBytes;
    }

    /** Work one connection may cost per second, in ids: 1 per BEGIN, 1 plus its ids per COMMIT. */
    public int maxIdsPerSecond() {
        return maxIdsPerSecond;
    }

    /** Who may raise fences. */
    public ClientPrincipals fenceAllowedClients() {
        return fenceAllowedClients;
    }

    /** TLS on the TSO port. */
    public TsoTlsSettings tls() {
        return tls;
    }

    public int batchMaxSize() {
        return batchMaxSize;
    }

    public int batchFlushTimeoutMs() {
        return batchFlushTimeoutMs;
    }

    public int lowWatermarkPersistIntervalMs() {
        return lowWatermarkPersistIntervalMs;
    }

    /** The commit table's settings; its write parallelism is the concurrent requests per batch in batched mode. */
    public CommitTableSettings commitTable() {
        return commitTable;
    }

    public TableName timestampTable() {
        return timestampTable;
    }

    /** The host name clients are told to reach this TSO at, or empty to derive it from the bound address. */
    public String advertisedHost() {
        return advertisedHost;
    }

    public LeaseTiming leaseTiming() {
        return leaseTiming;
    }

    /** Whether the HTTP endpoint (/metrics, /health) runs. */
    public boolean httpEnabled() {
        return httpPort >= 0;
    }

    /** The HTTP endpoint's port; 0 binds an ephemeral one. Only when {@link #httpEnabled()}. */
    public int httpPort() {
        return httpPort;
    }

    /** The address the HTTP endpoint listens on: {@code tidemark.tso.http.host}, else the TSO's own. */
    public String httpHost() {
        return httpHost;
    }

    /** How long a request to the HTTP endpoint may take to arrive in full. */
    public int httpRequestTimeoutMs() {
        return httpRequestTimeoutMs;
    }

    /** The lease znode of this TSO's timestamp table. */
    public String leasePath() {
        return leasePath;
    }
}
