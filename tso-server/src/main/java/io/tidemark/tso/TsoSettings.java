package io.tidemark.tso;

import io.tidemark.committable.CommitTableSettings;
import io.tidemark.config.InvalidConfigurationException;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.lease.TsoLeaseNode;
import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.MessageCodec;
import io.tidemark.tso.lease.LeaseTiming;
import io.tidemark.writeset.ConflictLevel;
import org.apache.hadoop.hbase.TableName;
import org.jspecify.annotations.Nullable;

/**
 * The TSO's configuration, read and validated once from {@link TidemarkConfig}: a bad value fails the build of the
 * server with an {@link InvalidConfigurationException} naming the key.
 */
public final class TsoSettings {

    private final String host;
    private final int port;
    private final @Nullable CommitMode commitMode;
    private final @Nullable ConflictLevel conflictLevel;
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
        host = config.get(TidemarkConfig.TSO_HOST);
        port = config.get(TidemarkConfig.TSO_PORT);
        commitMode = config.getIfSet(TidemarkConfig.TSO_COMMIT_MODE);
        conflictLevel = config.getIfSet(TidemarkConfig.TSO_CONFLICT_LEVEL);
        conflictMapEntries = config.get(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES);
        timestampBlock = config.get(TidemarkConfig.TSO_TIMESTAMP_BLOCK);
        maxWriteSet = config.get(TidemarkConfig.TSO_MAX_WRITE_SET);
        transactionTimeoutMs = config.get(TidemarkConfig.TSO_TRANSACTION_TIMEOUT_MS);
        maxFrameBytes = config.get(TidemarkConfig.TSO_MAX_FRAME_BYTES);
        long largestCommit = MessageCodec.commitBodyBytes(maxWriteSet, maxWriteSet);
        if (maxFrameBytes < largestCommit) {
            throw new InvalidConfigurationException(TidemarkConfig.TSO_MAX_FRAME_BYTES, Integer.toString(maxFrameBytes),
                    "at least " + largestCommit + ", the size of a COMMIT with " + TidemarkConfig.TSO_MAX_WRITE_SET
                            + " (" + maxWriteSet + ") write-set and table ids");
        }
        maxConnections = config.get(TidemarkConfig.TSO_MAX_CONNECTIONS);
        handshakeTimeoutMs = config.get(TidemarkConfig.TSO_HANDSHAKE_TIMEOUT_MS);
        idleTimeoutMs = config.get(TidemarkConfig.TSO_IDLE_TIMEOUT_MS);
        maxPendingReplyBytes = config.get(TidemarkConfig.TSO_MAX_PENDING_REPLY_BYTES);
        replyStallTimeoutMs = config.get(TidemarkConfig.TSO_REPLY_STALL_TIMEOUT_MS);
        maxRequestsInFlight = config.get(TidemarkConfig.TSO_MAX_REQUESTS_IN_FLIGHT);
        maxConnectionsPerAddress = config.get(TidemarkConfig.TSO_MAX_CONNECTIONS_PER_ADDRESS);
        connectRatePerAddress = config.get(TidemarkConfig.TSO_CONNECT_RATE_PER_ADDRESS);
        reclaimIdleMs = config.get(TidemarkConfig.TSO_RECLAIM_IDLE_MS);
        frameTimeoutMs = config.get(TidemarkConfig.TSO_FRAME_TIMEOUT_MS);
        maxBufferedFrameBytes = config.get(TidemarkConfig.TSO_MAX_BUFFERED_FRAME_BYTES);
        if (maxBufferedFrameBytes < maxFrameBytes) {
            throw new InvalidConfigurationException(TidemarkConfig.TSO_MAX_BUFFERED_FRAME_BYTES,
                    Integer.toString(maxBufferedFrameBytes), "at least " + TidemarkConfig.TSO_MAX_FRAME_BYTES + " ("
                            + maxFrameBytes + "), or no frame of that size could ever be received");
        }
        maxIdsPerSecond = config.get(TidemarkConfig.TSO_MAX_IDS_PER_SECOND);
        tls = new TsoTlsSettings(config);
        String fencers = config.get(TidemarkConfig.TSO_FENCE_ALLOWED_CLIENTS);
        fenceAllowedClients = ClientPrincipals.parse(TidemarkConfig.TSO_FENCE_ALLOWED_CLIENTS, fencers, true);
        if (!fenceAllowedClients.subjects().isEmpty() && !tls.clientCertificateRequired()) {
            // Refused rather than ignored: the operator believes fences are kept to those clients.
            throw new InvalidConfigurationException(TidemarkConfig.TSO_FENCE_ALLOWED_CLIENTS, fencers,
                    ClientPrincipals.ANONYMOUS + " or " + ClientPrincipals.NOBODY + " unless "
                            + TidemarkConfig.TSO_TLS_CLIENT_AUTH + " is require (without client certificates there is"
                            + " no subject to check)");
        }
        batchMaxSize = config.get(TidemarkConfig.TSO_BATCH_MAX_SIZE);
        batchFlushTimeoutMs = config.get(TidemarkConfig.TSO_BATCH_FLUSH_TIMEOUT_MS);
        lowWatermarkPersistIntervalMs = config.get(TidemarkConfig.TSO_LOW_WATERMARK_PERSIST_MS);
        commitTable = new CommitTableSettings(config);
        timestampTable = config.get(TidemarkConfig.TIMESTAMP_TABLE);
        advertisedHost = config.get(TidemarkConfig.TSO_ADVERTISED_HOST);
        leaseTiming = LeaseTiming.of(config);
        leasePath = TsoLeaseNode.path(config);
        httpPort = config.get(TidemarkConfig.TSO_HTTP_PORT);
        String configuredHttpHost = config.get(TidemarkConfig.TSO_HTTP_HOST);
        httpHost = configuredHttpHost.isEmpty() ? host : configuredHttpHost;
        httpRequestTimeoutMs = config.get(TidemarkConfig.TSO_HTTP_REQUEST_TIMEOUT_MS);
    }

    public String host() {
        return host;
    }

    /** 0 binds an ephemeral port. */
    public int port() {
        return port;
    }

    /** The configured commit mode, or null when unset (the TSO then follows the cluster's). */
    public @Nullable CommitMode commitMode() {
        return commitMode;
    }

    /** The configured conflict level, or null when unset (the TSO then follows the cluster's). */
    public @Nullable ConflictLevel conflictLevel() {
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
