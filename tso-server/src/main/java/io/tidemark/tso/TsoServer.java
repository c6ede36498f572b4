package io.tidemark.tso;

import com.codahale.metrics.Gauge;
import com.codahale.metrics.MetricRegistry;
import com.google.inject.Guice;
import com.google.inject.Inject;
import com.google.inject.ProvisionException;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.tidemark.committable.CommitTable;
import io.tidemark.committable.CommitTableAdmin;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitMode;
import io.tidemark.tso.conflict.ConflictMap;
import io.tidemark.tso.netty.TsoChannelInitializer;
import io.tidemark.tso.processing.BatchedCompletion;
import io.tidemark.tso.processing.CommitCompletion;
import io.tidemark.tso.processing.LowLatencyCompletion;
import io.tidemark.tso.processing.LowWatermarkPersister;
import io.tidemark.tso.processing.TransactionProcessor;
import io.tidemark.tso.timestamp.HBaseTimestampStorage;
import io.tidemark.tso.timestamp.TimestampOracle;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The timestamp oracle server: timestamps, conflict detection and, in batched mode, commit records, served over TCP.
 *
 * <p>Threads: one acceptor; one I/O event loop that owns all transaction state (every connection lives on it, so
 * nothing is locked); one thread claiming timestamp blocks; one persisting the low watermark; in batched mode one
 * commit-table writer. The HBase {@link Connection} belongs to the caller and is not closed here.
 */
public final class TsoServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TsoServer.class);
    private static final long SHUTDOWN_TIMEOUT_SECONDS = 5;

    private final TsoSettings settings;
    private final Connection connection;
    private final CommitTable commitTable;
    private final HBaseTimestampStorage timestampStorage;
    private final TsoMetrics metrics;
    private final ChannelGroup connections = new DefaultChannelGroup("tso-clients", GlobalEventExecutor.INSTANCE);

    private boolean started;
    private boolean closed;
    private long epoch;
    private int port;
    private ExecutorService timestampClaims;
    private EventLoopGroup acceptor;
    private EventLoopGroup ioLoop;
    private Channel serverChannel;
    private CommitCompletion completion;
    private LowWatermarkPersister lowWatermarkPersister;

    @Inject
    TsoServer(TsoSettings settings, Connection connection, CommitTable commitTable,
              HBaseTimestampStorage timestampStorage, TsoMetrics metrics) {
        this.settings = settings;
        this.connection = connection;
        this.commitTable = commitTable;
        this.timestampStorage = timestampStorage;
        this.metrics = metrics;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Creates the timestamp and commit tables if missing, claims the first timestamp block above the persisted bound
     * (which becomes the epoch), and starts serving.
     *
     * @throws io.tidemark.tso.timestamp.TimestampBoundLostException when another TSO claimed timestamps concurrently
     */
    public synchronized void start() throws IOException {
        if (started) {
            throw new IllegalStateException("the TSO server was already started");
        }
        started = true;
        try {
            startUp();
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    private void startUp() throws IOException {
        try (Admin admin = connection.getAdmin()) {
            CommitTableAdmin.createIfMissing(admin, settings.commitTable());
        }
        timestampStorage.createTableIfMissing();
        timestampClaims = Executors.newSingleThreadExecutor(new DefaultThreadFactory("tidemark-tso-timestamps", true));
        TimestampOracle oracle = TimestampOracle.start(timestampStorage, timestampClaims, settings.timestampBlock());
        epoch = oracle.epoch();
        long persistedLowWatermark = commitTable.readLowWatermark();
        ConflictMap conflictMap = new ConflictMap(settings.conflictMapEntries(),
                Math.max(epoch, persistedLowWatermark), evicted -> metrics.evictions().inc());
        MetricRegistry registry = metrics.registry();
        registry.register(TsoMetrics.LOW_WATERMARK, (Gauge<Long>) conflictMap::publishedLowWatermark);
        long epochValue = epoch;
        registry.register(TsoMetrics.EPOCH, (Gauge<Long>) () -> epochValue);

        acceptor = new NioEventLoopGroup(1, new DefaultThreadFactory("tidemark-tso-accept", true));
        ioLoop = new NioEventLoopGroup(1, new DefaultThreadFactory("tidemark-tso-io", true));
        EventLoop loop = ioLoop.next();
        completion = settings.commitMode() == CommitMode.BATCHED
                ? new BatchedCompletion(loop, commitTable, settings.commitTable().writeParallelism(),
                        settings.batchMaxSize(), settings.batchFlushTimeoutMs(),
                        settings.commitTable().commitRecordTimeoutMs(), metrics)
                : new LowLatencyCompletion(metrics);
        TransactionProcessor processor = new TransactionProcessor(oracle, conflictMap, completion, metrics);
        lowWatermarkPersister = new LowWatermarkPersister(conflictMap, commitTable, persistedLowWatermark,
                settings.lowWatermarkPersistIntervalMs());

        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(acceptor, ioLoop)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childHandler(new TsoChannelInitializer(settings.maxFrameBytes(), settings.commitMode(), epoch,
                        processor, metrics, connections));
        try {
            serverChannel = bootstrap.bind(settings.host(), settings.port()).sync().channel();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while binding the TSO port", e);
        } catch (RuntimeException e) {
            throw new IOException("could not bind the TSO to " + settings.host() + ":" + settings.port(), e);
        }
        port = ((InetSocketAddress) serverChannel.localAddress()).getPort();
        LOG.info("TSO serving on {}:{} in {} mode, epoch {}, conflict map of {} entries", settings.host(), port,
                settings.commitMode().configName(), epoch, conflictMap.capacity());
    }

    /** The bound port (the configured one, or the ephemeral one when the configuration says 0). */
    public synchronized int port() {
        requireStarted();
        return port;
    }

    /** Every timestamp of earlier incarnations is at or below the epoch; this one's are above it. */
    public synchronized long epoch() {
        requireStarted();
        return epoch;
    }

    public CommitMode commitMode() {
        return settings.commitMode();
    }

    public MetricRegistry metrics() {
        return metrics.registry();
    }

    private void requireStarted() {
        if (!started || serverChannel == null) {
            throw new IllegalStateException("the TSO server is not running: call start() first");
        }
    }

    /** Stops accepting, drops every connection, finishes queued commit-table writes, releases all threads. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (serverChannel != null) {
            serverChannel.close().syncUninterruptibly();
        }
        connections.close().awaitUninterruptibly();
        if (completion != null) {
            completion.close();
        }
        if (ioLoop != null) {
            ioLoop.shutdownGracefully(0, SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS).syncUninterruptibly();
        }
        if (acceptor != null) {
            acceptor.shutdownGracefully(0, SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS).syncUninterruptibly();
        }
        if (lowWatermarkPersister != null) {
            lowWatermarkPersister.close();
        }
        if (timestampClaims != null) {
            timestampClaims.shutdownNow();
        }
        LOG.info("TSO stopped (epoch {})", epoch);
    }

    /** Builds a server from configuration and an HBase connection, wired by {@link TsoModule}. */
    public static final class Builder {

        private TidemarkConfig config;
        private Connection connection;
        private MetricRegistry registry;

        private Builder() {
        }

        public Builder config(TidemarkConfig tidemarkConfig) {
            this.config = tidemarkConfig;
            return this;
        }

        public Builder hbaseConnection(Connection hbaseConnection) {
            this.connection = hbaseConnection;
            return this;
        }

        /** Optional: the registry to publish metrics in; a fresh one by default. */
        public Builder metricRegistry(MetricRegistry metricRegistry) {
            this.registry = metricRegistry;
            return this;
        }

        /**
         * @throws io.tidemark.config.InvalidConfigurationException when a configuration value is invalid
         */
        public TsoServer build() {
            Objects.requireNonNull(config, "config is required");
            Objects.requireNonNull(connection, "hbaseConnection is required");
            MetricRegistry metricRegistry = registry != null ? registry : new MetricRegistry();
            try {
                return Guice.createInjector(new TsoModule(config, connection, metricRegistry))
                        .getInstance(TsoServer.class);
            } catch (ProvisionException e) {
                // Surface the real cause (typically an invalid configuration value), not Guice's wrapper.
                if (e.getCause() instanceof RuntimeException) {
                    throw (RuntimeException) e.getCause();
                }
                throw e;
            }
        }
    }
}
