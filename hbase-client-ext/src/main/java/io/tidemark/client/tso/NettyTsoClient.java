package io.tidemark.client.tso;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Future;
import io.tidemark.config.HostAndPort;
import io.tidemark.config.Setting;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.lease.TsoLeaseNode;
import io.tidemark.lease.ZooKeeperQuorum;
import io.tidemark.protocol.HelloReply;
import org.apache.hadoop.conf.Configuration;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The client's connection to the TSO: every caller's requests are multiplexed, with many in flight at once, over a
 * few TCP connections served by a single Netty event loop thread.
 *
 * <p>Threading: all methods are thread-safe. {@link #begin} and {@link #commit} only queue the request; the event
 * loop writes everything queued and flushes once per batch. Returned futures are completed <em>on the event loop
 * thread</em>: dependent stages ({@code thenApply} and friends) run there too, so they must be short and must never
 * block (in particular never wait for another TSO reply), or every caller stalls. Blocking {@code get()} from the
 * caller's own thread is the intended use.
 *
 * <p>Finding the TSO: by default the active TSO's lease in the HBase cluster's ZooKeeper names it, so a failover to
 * a standby needs nothing from the application; {@code tidemark.client.tso.address} pins one address instead.
 * Connections are opened lazily by the first request and again by the first request after one drops; while a
 * request waits (within its timeout), failed attempts are repeated every retry backoff, so requests ride out a
 * failover. A BEGIN whose connection dropped is sent again; a COMMIT never is (its outcome is unknown).
 *
 * <p>Build with {@link #builder()} or {@link #create}; always {@link #close()} it.
 */
public final class NettyTsoClient implements TsoClient {

    private static final Logger LOG = LoggerFactory.getLogger(NettyTsoClient.class);

    private final TsoAddressSource addresses;
    private final long requestTimeoutNanos;
    private final long handshakeWaitMillis;
    private final EventLoopGroup group;
    private final TsoConnection[] connections;
    private final AtomicInteger nextConnection = new AtomicInteger();
    private final AtomicBoolean closed = new AtomicBoolean();

    private NettyTsoClient(Builder builder) {
        this.addresses = builder.addresses();
        long timeoutMillis = builder.requestTimeout.toMillis();
        long backoffMillis = builder.retryBackoff.toMillis();
        this.requestTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        // A handshake waiter expires after the request timeout; the extra second is slack only.
        this.handshakeWaitMillis = timeoutMillis + 1000;
        this.group = new NioEventLoopGroup(1, new DefaultThreadFactory("tidemark-tso-client", true));
        Bootstrap template = new Bootstrap()
                .channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) timeoutMillis);
        this.connections = new TsoConnection[builder.connections];
        for (int i = 0; i < connections.length; i++) {
            connections[i] = new TsoConnection(addresses, group.next(), template, builder.tls, timeoutMillis,
                    backoffMillis);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * A client configured by {@code tidemark.client.tso.*} (TLS by {@code tidemark.client.tso.tls.*}): with
     * {@code tidemark.client.tso.address} set, the TSO at that address; otherwise the active TSO named by the lease of
     * {@code tidemark.timestamp-table.name} (under {@code tidemark.zookeeper.root}) in the ZooKeeper of
     * {@code hbaseConf}.
     *
     * @param hbaseConf the HBase client configuration (its ZooKeeper quorum); typically the connection's
     * @throws io.tidemark.config.InvalidConfigurationException naming the key when a value is malformed or out of range
     */
    public static NettyTsoClient create(TidemarkConfig config, Configuration hbaseConf) {
        Builder builder = builder()
                .connections(config.get(TidemarkConfig.CLIENT_TSO_CONNECTIONS))
                .requestTimeout(Duration.ofMillis(config.get(TidemarkConfig.CLIENT_TSO_TIMEOUT_MS)))
                .retryBackoff(Duration.ofMillis(config.get(TidemarkConfig.CLIENT_TSO_RETRY_BACKOFF_MS)))
                .tls(TsoClientTls.fromConfig(config));
        HostAndPort fixed = config.get(TidemarkConfig.CLIENT_TSO_ADDRESS);
        if (fixed != null) {
            return builder.address(fixed).build();
        }
        String path = TsoLeaseNode.path(config);
        String quorum = ZooKeeperQuorum.connectString(hbaseConf);
        if (ZooKeeperQuorum.isHBaseDefault(hbaseConf)) {
            LOG.warn("The HBase configuration names no ZooKeeper of its own, so the client looks for the active TSO"
                    + " at HBase's default, {}: put the cluster's hbase-site.xml on the classpath, or set {}",
                    quorum, TidemarkConfig.CLIENT_TSO_ADDRESS);
        }
        return builder.zooKeeper(quorum, path).build();
    }

    /**
     * {@inheritDoc}
     *
     * <p>If the connection drops with the BEGIN in flight, it is sent once more on a fresh connection: an unanswered
     * BEGIN at most wastes a timestamp. The request timeout still counts from this call.
     */
    @Override
    public CompletableFuture<BeginResult> begin() {
        BeginCall call = new BeginCall(deadline());
        nextConnection().submit(call);
        return call.future();
    }

    /**
     * {@inheritDoc}
     *
     * <p>A COMMIT is <em>never</em> sent twice: if it fails with {@link TsoUnavailableException} (timeout, dropped
     * connection, ERROR) the TSO may or may not have committed the transaction, and only the commit table can tell.
     * The arrays are sent as they are when the request is written, later than this call: do not change them until the
     * future completes.
     *
     * @throws IllegalArgumentException when {@code startTimestamp} is not positive or an array is null
     */
    @Override
    public CompletableFuture<CommitResult> commit(long startTimestamp, long commitToken, long[] writeSet,
                                                  long[] tableIds) {
        if (startTimestamp <= 0) {
            throw new IllegalArgumentException("start timestamp must be positive, was " + startTimestamp);
        }
        if (writeSet == null || tableIds == null) {
            throw new IllegalArgumentException("write set and table ids must not be null (use empty arrays)");
        }
        CommitCall call = new CommitCall(deadline(), startTimestamp, commitToken, writeSet, tableIds);
        nextConnection().submit(call);
        return call.future();
    }

    /** {@inheritDoc} Blocks while connecting. */
    @Override
    public TsoIncarnation incarnation() throws TsoUnavailableException {
        return TsoIncarnation.of(handshake());
    }

    @Override
    public String describeTarget() {
        return addresses.describe();
    }

    /**
     * Fails every pending request with {@link TsoUnavailableException}, closes the connections and stops the event
     * loop thread (waiting for it at most a few seconds, unless called from it). Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        for (TsoConnection connection : connections) {
            connection.close();
        }
        Future<?> termination = group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        if (!group.next().inEventLoop()) {
            termination.awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
        addresses.close();
    }

    private long deadline() {
        return System.nanoTime() + requestTimeoutNanos;
    }

    private TsoConnection nextConnection() {
        if (connections.length == 1) {
            return connections[0];
        }
        return connections[Math.floorMod(nextConnection.getAndIncrement(), connections.length)];
    }

    private HelloReply handshake() throws TsoUnavailableException {
        for (TsoConnection connection : connections) {
            HelloReply hello = connection.readyHello();
            if (hello != null) {
                return hello;
            }
        }
        try {
            return connections[0].handshake().get(handshakeWaitMillis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            if (cause instanceof TsoUnavailableException) {
                // Keeps the TSO's error code, if it sent one.
                throw (TsoUnavailableException) cause;
            }
            throw new TsoUnavailableException(cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw new TsoUnavailableException("no handshake with " + addresses.describe() + " within "
                    + handshakeWaitMillis + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TsoUnavailableException("interrupted while connecting to " + addresses.describe(), e);
        }
    }

    /** Settings of a {@link NettyTsoClient}; each setter rejects a bad value at once. */
    public static final class Builder {

        private @Nullable HostAndPort address;
        private @Nullable String zooKeeper;
        private @Nullable String leasePath;
        private int connections = TidemarkConfig.CLIENT_TSO_CONNECTIONS.requiredDefault();
        private Duration requestTimeout = Duration.ofMillis(TidemarkConfig.CLIENT_TSO_TIMEOUT_MS.requiredDefault());
        private Duration retryBackoff = Duration.ofMillis(TidemarkConfig.CLIENT_TSO_RETRY_BACKOFF_MS.requiredDefault());
        private @Nullable TsoClientTls tls;

        private Builder() {
        }

        /** TLS towards the TSO; null (the default) speaks plaintext. */
        public Builder tls(@Nullable TsoClientTls clientTls) {
            this.tls = clientTls;
            return this;
        }

        /** A TSO at a fixed address (instead of {@link #zooKeeper}). */
        public Builder address(HostAndPort address) {
            if (address == null) {
                throw new IllegalArgumentException("TSO address must not be null");
            }
            this.address = address;
            this.zooKeeper = null;
            return this;
        }

        /**
         * The active TSO named by the lease znode {@code leasePath} ({@link TsoLeaseNode#path}) in the ZooKeeper at
         * {@code connectString} (instead of {@link #address}).
         */
        public Builder zooKeeper(String connectString, String leasePath) {
            if (connectString == null || connectString.isEmpty() || leasePath == null || !leasePath.startsWith("/")) {
                throw new IllegalArgumentException("a ZooKeeper connect string and a lease path starting with / are"
                        + " required, got '" + connectString + "' and '" + leasePath + "'");
            }
            this.zooKeeper = connectString;
            this.leasePath = leasePath;
            this.address = null;
            return this;
        }

        /** TCP connections to open: what {@code tidemark.client.tso.connections} accepts; default 1. */
        public Builder connections(int connections) {
            requireAccepted(TidemarkConfig.CLIENT_TSO_CONNECTIONS, connections, "connections");
            this.connections = connections;
            return this;
        }

        /**
         * How long a request may wait for its reply, from the call, reconnecting meanwhile if needed (e.g. during a
         * TSO failover); also bounds each connect attempt and handshake. In whole milliseconds, what
         * {@code tidemark.client.tso.request-timeout-ms} accepts.
         */
        public Builder requestTimeout(Duration requestTimeout) {
            requireAccepted(TidemarkConfig.CLIENT_TSO_TIMEOUT_MS, millisOf(requestTimeout), "request timeout in ms");
            this.requestTimeout = requestTimeout;
            return this;
        }

        /**
         * Pause between connect attempts, in whole milliseconds, what {@code tidemark.client.tso.retry-backoff-ms}
         * accepts.
         */
        public Builder retryBackoff(Duration retryBackoff) {
            requireAccepted(TidemarkConfig.CLIENT_TSO_RETRY_BACKOFF_MS, millisOf(retryBackoff), "retry backoff in ms");
            this.retryBackoff = retryBackoff;
            return this;
        }

        private static long millisOf(Duration duration) {
            if (duration == null) {
                throw new IllegalArgumentException("a duration is required");
            }
            return duration.toMillis();
        }

        /** The builder accepts what the setting of the same name does, so a value means the same either way. */
        private static void requireAccepted(Setting<Integer> setting, long value, String what) {
            if (!setting.accepts(Long.toString(value))) {
                throw new IllegalArgumentException(what + " must be " + setting.type().accepted() + " (as "
                        + setting + "), was " + value);
            }
        }

        /** A new client; it connects on first use. */
        public NettyTsoClient build() {
            if (address == null && zooKeeper == null) {
                throw new IllegalArgumentException("where is the TSO? call address(host:port) or zooKeeper(...) before"
                        + " build()");
            }
            return new NettyTsoClient(this);
        }

        private TsoAddressSource addresses() {
            // build() refused a builder with neither
            return address != null ? new StaticTsoAddress(address)
                    : new ZooKeeperTsoAddress(Objects.requireNonNull(zooKeeper), Objects.requireNonNull(leasePath));
        }
    }
}
