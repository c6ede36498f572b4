package io.tidemark.tso;

import com.codahale.metrics.JmxReporter;
import com.codahale.metrics.MetricRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.tidemark.committable.CommitTable;
import io.tidemark.committable.HBaseCommitTable;
import io.tidemark.committable.TimestampTableKeys;
import io.tidemark.config.HostAndPort;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.lease.TsoLeaseNode;
import io.tidemark.lease.ZooKeeperQuorum;
import io.tidemark.tso.cluster.ClusterSettings;
import io.tidemark.tso.cluster.ClusterSettingsAgreement;
import io.tidemark.tso.cluster.ClusterSettingsStore;
import io.tidemark.tso.cluster.HBaseClusterSettingsStore;
import io.tidemark.tso.lease.Lease;
import io.tidemark.tso.lease.LeaseElection;
import io.tidemark.tso.lease.LeaseElectionFactory;
import io.tidemark.tso.lease.ZooKeeperLeaseElection;
import io.tidemark.tso.netty.ConnectionAdmission;
import io.tidemark.tso.netty.ConnectionLogs;
import io.tidemark.tso.netty.TlsHandshakes;
import io.tidemark.tso.monitoring.TsoHttpEndpoint;
import io.tidemark.tso.monitoring.TsoJmx;
import io.tidemark.tso.monitoring.TsoRole;
import io.tidemark.tso.monitoring.TsoStatus;
import io.tidemark.tso.netty.ServingGate;
import io.tidemark.tso.netty.TsoServerSocketChannel;
import io.tidemark.tso.netty.TsoChannelInitializer;
import io.tidemark.tso.timestamp.HBaseTimestampStorage;
import io.tidemark.tso.timestamp.TimestampStorage;
import org.apache.hadoop.hbase.client.Connection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.jspecify.annotations.Nullable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The timestamp oracle server: timestamps, conflict detection and, in batched mode, commit records, served over TCP
 * by at most one TSO of a cluster at a time.
 *
 * <p>Life cycle: {@link #startCompeting()} binds the port first (a busy port fails here, before anything is read or
 * written), then competes for the lease in the background. While another TSO holds the lease this one is a
 * <em>standby</em>: it answers HELLO with {@code NOT_ACTIVE}. Once it holds the lease it agrees the cluster settings,
 * claims its epoch in the timestamp table, builds its state and only then serves. It checks its lease before every
 * flush of replies; the moment the lease ends (or another TSO moved the timestamp bound) it stops serving for good:
 * no further reply, every connection closed, and the {@link Listener} told why. A stopped server never serves again:
 * the process exits and a supervisor starts a fresh one, which stands by.
 *
 * <p>Threads: one acceptor; one I/O event loop that owns all transaction state (every connection lives on it, so
 * nothing is locked); one competing for the lease and taking over; the lease's renewal threads; one claiming
 * timestamp blocks; one persisting the low watermark; in batched mode one commit-table writer.
 */
public final class TsoServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TsoServer.class);
    private static final long SHUTDOWN_TIMEOUT_SECONDS = 5;

    /** Told about the server's role; called from the server's own threads, so implementations must not block. */
    public interface Listener {

        /** Another TSO holds the lease ({@code holder}, or null when unreadable): this one stands by. */
        default void standingBy(TsoLeaseNode holder) {
        }

        /** This TSO holds the lease and serves from now on. */
        default void active(long epoch, ClusterSettings settings) {
        }

        /** This TSO stopped serving by itself (lease lost, timestamp bound lost, take-over failed); not for close(). */
        default void stopped(String reason) {
        }
    }

    /**
     * The server's life, one way: {@code NEW}, {@code STARTING} (binding its ports), {@code COMPETING} for the lease
     * (a standby while another TSO holds it), {@code TAKING_OVER}, {@code ACTIVE}; then {@code STOPPED} when it stops
     * serving by itself, from any of those, and {@code CLOSED} by {@link #close()} from any state. Whether replies may
     * go out is the {@link ServingGate}'s to say, per flush, from the lease.
     */
    private enum State { NEW, STARTING, COMPETING, TAKING_OVER, ACTIVE, STOPPED, CLOSED }

    private final TsoSettings settings;
    private final CommitTable commitTable;
    private final ClusterSettingsStore clusterSettingsStore;
    private final ClusterSettingsAgreement agreement;
    private final LeaseElectionFactory elections;
    private final TsoMetrics metrics;
    private final Listener listener;
    private final ChannelGroup connections = new DefaultChannelGroup("tso-clients", GlobalEventExecutor.INSTANCE);
    private final CompletableFuture<Long> activation = new CompletableFuture<>();
    private final CompletableFuture<String> stop = new CompletableFuture<>();
    private final ServingGate gate;
    private final TakeOver takeOver;
    private final StatusReporter statusReporter;
    /** Where the server is in its life; see {@link State}. */
    private final AtomicReference<State> state = new AtomicReference<>(State.NEW);

    // Null until startCompeting sets them (and, for the active incarnation and the lease, until the take-over).
    private volatile @Nullable HostAndPort advertisedAddress;
    private int port;
    private volatile @Nullable LeaseElection election;
    private volatile @Nullable Lease lease;
    /** What the server serves with, from its take-over on (kept after it stopped, for {@link #epoch()}). */
    private volatile @Nullable ActiveIncarnation active;
    private @Nullable Thread campaign;
    private @Nullable EventLoopGroup acceptor;
    private @Nullable EventLoopGroup ioLoop;
    private @Nullable Channel serverChannel;
    private @Nullable TlsHandshakes tls;
    private @Nullable TsoHttpEndpoint http;
    private volatile @Nullable HostAndPort httpAddress;
    private @Nullable JmxReporter jmx;

    private TsoServer(TsoSettings settings, TimestampStorage timestampStorage, CommitTable commitTable,
                      ClusterSettingsStore clusterSettingsStore, LeaseElectionFactory elections, TsoMetrics metrics,
                      Listener listener, boolean reconfigure) {
        this.settings = settings;
        this.commitTable = commitTable;
        this.clusterSettingsStore = clusterSettingsStore;
        this.elections = elections;
        this.metrics = metrics;
        this.listener = listener;
        this.agreement = new ClusterSettingsAgreement(settings.commitMode(), settings.conflictLevel(), reconfigure,
                "the timestamp table " + settings.timestampTable().getNameAsString());
        this.gate = new ServingGate(() -> election == null ? null : election.lastSeenHolder(), this::stopServing);
        this.takeOver = new TakeOver(settings, timestampStorage, commitTable, clusterSettingsStore, agreement, metrics);
        this.statusReporter = new StatusReporter(metrics);
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Starts and waits until this TSO serves: at once when no other TSO holds the lease, otherwise as a standby
     * until the holder's lease ends.
     *
     * @throws IOException when the port cannot be bound, or this TSO stopped before it served
     */
    public void start() throws IOException {
        startCompeting();
        awaitActive(null);
    }

    /**
     * Binds the port and starts competing for the lease in the background; returns at once. Fails, touching nothing
     * in HBase or ZooKeeper, when the port is busy; fails when this TSO's configuration disagrees with the stored
     * cluster settings.
     *
     * @throws io.tidemark.tso.cluster.ClusterSettingsMismatchException when a configured cluster setting differs
     */
    public synchronized void startCompeting() throws IOException {
        if (!state.compareAndSet(State.NEW, State.STARTING)) {
            throw new IllegalStateException("the TSO server was already started (or closed): build a new one");
        }
        statusReporter.startClock();
        try {
            bind();
            startMonitoring();
            agreement.check(clusterSettingsStore);
            // Also finds the commit table's region, so that a take-over does not wait for that lookup.
            commitTable.readLowWatermark();
            String holder = ProcessHandle.current().pid() + "-" + UUID.randomUUID();
            election = elections.create(new TsoLeaseNode(holder, Objects.requireNonNull(advertisedAddress,
                    "set by bind"), httpAddress));
            campaign = new Thread(this::compete, "tidemark-tso-campaign");
            campaign.setDaemon(true);
            if (state.compareAndSet(State.STARTING, State.COMPETING)) {
                campaign.start();
            }
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    private void bind() throws IOException {
        acceptor = new NioEventLoopGroup(1, new DefaultThreadFactory("tidemark-tso-accept", true));
        ioLoop = new NioEventLoopGroup(1, new DefaultThreadFactory("tidemark-tso-io", true));
        tls = settings.tls().enabled() ? new TlsHandshakes(settings.tls().newContext()) : null;
        ConnectionLogs logs = new ConnectionLogs(ioLoop);
        ConnectionAdmission admission = new ConnectionAdmission(OpenFileLimit.maxConnections(
                settings.maxConnections()), settings.maxConnectionsPerAddress(), settings.connectRatePerAddress(),
                settings.reclaimIdleMs(), tls != null, metrics, logs);
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(acceptor, ioLoop)
                .channelFactory(() -> new TsoServerSocketChannel(metrics, logs))
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.SO_REUSEADDR, true)
                .handler(admission)
                .childHandler(new TsoChannelInitializer(settings, tls, gate, metrics, logs, connections,
                        ioLoop.next()));
        try {
            serverChannel = bootstrap.bind(settings.host(), settings.port()).sync().channel();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while binding the TSO port");
        } catch (Exception e) {
            // Netty rethrows the bind failure (a checked BindException) without declaring it.
            throw new IOException("could not bind the TSO to " + settings.host() + ":" + settings.port() + ": "
                    + e.getMessage(), e);
        }
        port = ((InetSocketAddress) serverChannel.localAddress()).getPort();
        advertisedAddress = new HostAndPort(advertisedHost(), port);
        LOG.info("TSO bound to {}:{} ({}), reachable as {}; competing for the lease {}; resident memory at most {} MiB",
                settings.host(), port, tls == null ? "plaintext"
                        : settings.tls().clientCertificateRequired() ? "mutual TLS" : "TLS", advertisedAddress,
                settings.leasePath(), TsoMemory.residentBound(settings, Runtime.getRuntime().maxMemory()) >> 20);
    }

    /**
     * Binds the HTTP endpoint (when configured; a busy port fails here, before anything is read or written) and
     * exports the metrics on JMX ({@link TsoJmx}). The HTTP port is bound in any role: a standby answers /health.
     */
    private void startMonitoring() throws IOException {
        metrics.registerStatusGauges(this::status);
        if (settings.httpEnabled()) {
            http = TsoHttpEndpoint.start(settings.httpHost(), settings.httpPort(), metrics.registry(), this::status,
                    settings.httpRequestTimeoutMs(), metrics.httpRequestTimeouts());
            httpAddress = new HostAndPort(httpAdvertisedHost(), http.address().getPort());
            LOG.info("TSO metrics and health on http://{}{} and {}", httpAddress, TsoHttpEndpoint.METRICS_PATH,
                    TsoHttpEndpoint.HEALTH_PATH);
        }
        jmx = TsoJmx.start(metrics.registry(), port);
    }

    /**
     * Where others reach the HTTP endpoint: the address it was bound to, when that is a specific one of its own (a
     * management network), else the host clients reach the TSO at.
     */
    private String httpAdvertisedHost() throws UnknownHostException {
        String bound = settings.httpHost();
        if (!bound.equals(settings.host()) && !InetAddress.getByName(bound).isAnyLocalAddress()) {
            return bound;
        }
        return advertisedHost();
    }

    private String advertisedHost() throws UnknownHostException {
        if (!settings.advertisedHost().isEmpty()) {
            return settings.advertisedHost();
        }
        InetAddress bound = InetAddress.getByName(settings.host());
        return bound.isAnyLocalAddress() ? InetAddress.getLocalHost().getCanonicalHostName() : settings.host();
    }

    /** The campaign thread: wait for the lease, then take over. */
    private void compete() {
        Lease held;
        try {
            held = Objects.requireNonNull(election, "created before the campaign starts")
                    .acquire(this::stopServing, listener::standingBy);
        } catch (InterruptedException e) {
            stopServing("stopped before it held the lease");
            return;
        } catch (IOException | RuntimeException e) {
            stopServing("could not compete for the lease: " + e.getMessage());
            return;
        }
        lease = held;
        state.compareAndSet(State.COMPETING, State.TAKING_OVER);
        try {
            takeOver(held);
        } catch (Exception e) {
            LOG.error("Taking over as the active TSO failed", e);
            metrics.error("taking over as the active TSO failed: " + e);
            stopServing("taking over failed: " + e.getMessage());
            held.release();
        }
    }

    private void takeOver(Lease held) throws IOException {
        long started = System.nanoTime();
        ActiveIncarnation incarnation = takeOver.build(held, Objects.requireNonNull(ioLoop, "bound before").next(),
                gate::mayServe, this::stopServing);
        synchronized (this) {
            if (gate.isStopped()) {
                incarnation.close();
                return;
            }
            active = incarnation;
        }
        gate.activate(incarnation.forGate());
        if (!gate.mayServe()) {
            stopServing("the lease ended while taking over");
            return;
        }
        state.compareAndSet(State.TAKING_OVER, State.ACTIVE);
        LOG.info("TSO active on {} with {}, epoch {}, conflict map of {} entries ({} ms after taking the lease)",
                advertisedAddress, incarnation.clusterSettings(), incarnation.epoch(),
                incarnation.conflictMap().capacity(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        activation.complete(incarnation.epoch());
        listener.active(incarnation.epoch(), incarnation.clusterSettings());
    }

    /**
     * Stops serving for good: called when the lease ended, the timestamp bound was lost or taking over failed. May be
     * called on the event loop, so the work happens on a thread of its own.
     */
    private void stopServing(String reason) {
        if (!gate.stop(reason)) {
            return;
        }
        state.getAndUpdate(now -> now == State.CLOSED ? State.CLOSED : State.STOPPED);
        LOG.error("TSO on {} stops serving: {}", advertisedAddress, reason);
        metrics.error("stopped serving: " + reason);
        Thread stopper = new Thread(() -> {
            releaseServingParts(false);
            activation.completeExceptionally(new IOException("the TSO stopped serving: " + reason));
            if (stop.complete(reason)) {
                listener.stopped(reason);
            }
        }, "tidemark-tso-stop");
        stopper.setDaemon(true);
        stopper.start();
    }

    /** Closes connections and serving threads; releases the lease only on an orderly close. */
    private synchronized void releaseServingParts(boolean releaseLease) {
        if (serverChannel != null) {
            serverChannel.close().syncUninterruptibly();
        }
        connections.close().awaitUninterruptibly();
        ActiveIncarnation served = active;
        if (served != null) {
            served.close();
        }
        Lease held = lease;
        if (releaseLease && held != null) {
            held.release();
        }
        if (election != null) {
            election.close();
        }
    }

    /**
     * Waits until this TSO serves.
     *
     * @param timeout how long at most; null waits as long as it takes
     * @return the epoch
     * @throws IOException when it stopped before serving, or did not serve within the timeout
     */
    public long awaitActive(@Nullable Duration timeout) throws IOException {
        try {
            return timeout == null ? activation.get() : activation.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new IOException(cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw new IOException("the TSO did not become active within " + Objects.requireNonNull(timeout,
                    "only a bounded wait times out").toMillis() + " ms (another"
                    + " TSO holds the lease " + settings.leasePath() + ")", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for the TSO to become active");
        }
    }

    /** Completes with the reason when this TSO stops serving by itself (not on {@link #close()}). */
    public CompletableFuture<String> stopped() {
        return stop;
    }

    /** Whether this TSO serves now. */
    public boolean isActive() {
        return gate.mayServe();
    }

    /** The bound port (the configured one, or the ephemeral one when the configuration says 0). */
    public synchronized int port() {
        requireStarted();
        return port;
    }

    /** Where clients reach this TSO; published in its lease. */
    public synchronized HostAndPort advertisedAddress() {
        requireStarted();
        return Objects.requireNonNull(advertisedAddress, "set when started");
    }

    /** Every timestamp of earlier incarnations is at or below the epoch; this one's are above it. */
    public long epoch() {
        requireActivated();
        return Objects.requireNonNull(active, "set when activated").epoch();
    }

    /** The cluster settings this TSO serves with. */
    public ClusterSettings clusterSettings() {
        requireActivated();
        return Objects.requireNonNull(active, "set when activated").clusterSettings();
    }

    public MetricRegistry metrics() {
        return metrics.registry();
    }

    /** Where the HTTP endpoint is reached (published in the lease), or null when it is off. */
    public synchronized @Nullable HostAndPort httpAddress() {
        requireStarted();
        return httpAddress;
    }

    /** What this TSO is doing now, as /health and {@code ./tidemark status} show it. Any thread; never blocks. */
    public TsoStatus status() {
        LeaseElection competing = election;
        return statusReporter.report(role(), gate.stopReason(), advertisedAddress, httpAddress,
                gate.mayServe() ? active : null, competing == null ? null : competing.lastSeenHolder());
    }

    private TsoRole role() {
        switch (Objects.requireNonNull(state.get(), "always set")) {
            case STOPPED:
            case CLOSED:
                return TsoRole.STOPPED;
            case ACTIVE:
                // Served, and its lease ended: stopping right now.
                return gate.mayServe() ? TsoRole.ACTIVE : TsoRole.STOPPED;
            case COMPETING:
                LeaseElection competing = election;
                return competing != null && competing.lastSeenHolder() != null ? TsoRole.STANDBY : TsoRole.STARTING;
            default:
                return TsoRole.STARTING;
        }
    }

    private void requireStarted() {
        if (state.get() == State.NEW || serverChannel == null) {
            throw new IllegalStateException("the TSO server is not running: call start() first");
        }
    }

    private void requireActivated() {
        if (!activation.isDone() || activation.isCompletedExceptionally()) {
            throw new IllegalStateException("the TSO has not served (yet): it is a standby or stopped");
        }
    }

    /**
     * Stops serving (or standing by), closes every connection, finishes queued commit-table writes, gives the lease up
     * so a standby takes over at once, and releases all threads.
     */
    @Override
    public void close() {
        if (state.getAndSet(State.CLOSED) == State.CLOSED) {
            return;
        }
        gate.stop("closed");
        activation.completeExceptionally(new IOException("the TSO was closed"));
        if (campaign != null) {
            campaign.interrupt();
        }
        releaseServingParts(true);
        if (campaign != null) {
            try {
                campaign.join(TimeUnit.SECONDS.toMillis(SHUTDOWN_TIMEOUT_SECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (ioLoop != null) {
            ioLoop.shutdownGracefully(0, SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS).syncUninterruptibly();
        }
        if (acceptor != null) {
            acceptor.shutdownGracefully(0, SHUTDOWN_TIMEOUT_SECONDS, TimeUnit.SECONDS).syncUninterruptibly();
        }
        if (tls != null) {
            tls.close();
        }
        stopMonitoring();
        ActiveIncarnation served = active;
        LOG.info("TSO stopped (epoch {})", served == null ? 0 : served.epoch());
    }

    /** The HTTP endpoint and JMX outlive a TSO that stopped serving by itself: /health then says why, until close. */
    private synchronized void stopMonitoring() {
        if (http != null) {
            http.close();
        }
        if (jmx != null) {
            jmx.stop();
        }
    }

    /**
     * Builds a server from its configuration and its parts: the timestamp storage, the commit table, the store of
     * cluster settings and the lease election. {@link #hbaseConnection} supplies the production parts (HBase tables,
     * created when missing, and leases in the HBase cluster's ZooKeeper) for those not set explicitly.
     */
    public static final class Builder {

        private @Nullable TidemarkConfig config;
        private @Nullable Connection connection;
        private @Nullable TimestampStorage timestampStorage;
        private @Nullable CommitTable commitTable;
        private @Nullable ClusterSettingsStore clusterSettingsStore;
        private @Nullable LeaseElectionFactory elections;
        private @Nullable MetricRegistry registry;
        private @Nullable Listener listener;
        private boolean reconfigure;

        private Builder() {
        }

        public Builder config(TidemarkConfig tidemarkConfig) {
            this.config = tidemarkConfig;
            return this;
        }

        /** HBase wiring: every part not set explicitly lives in this HBase cluster and its ZooKeeper. */
        public Builder hbaseConnection(Connection hbaseConnection) {
            this.connection = hbaseConnection;
            return this;
        }

        public Builder timestampStorage(TimestampStorage storage) {
            this.timestampStorage = storage;
            return this;
        }

        public Builder commitTable(CommitTable table) {
            this.commitTable = table;
            return this;
        }

        public Builder clusterSettingsStore(ClusterSettingsStore store) {
            this.clusterSettingsStore = store;
            return this;
        }

        /** How this TSO competes for the lease (e.g. {@code new InMemoryLeases()::election}). */
        public Builder leases(LeaseElectionFactory factory) {
            this.elections = factory;
            return this;
        }

        /** Optional: the registry to publish metrics in; a fresh one by default. */
        public Builder metricRegistry(MetricRegistry metricRegistry) {
            this.registry = metricRegistry;
            return this;
        }

        /** Optional: told when the server stands by, serves, or stops by itself. */
        public Builder listener(Listener serverListener) {
            this.listener = serverListener;
            return this;
        }

        /**
         * Whether this TSO's configured commit mode and conflict level replace differing cluster settings when it
         * takes the lease, instead of being refused ({@code ./tidemark tso --reconfigure}).
         */
        public Builder reconfigureCluster(boolean replace) {
            this.reconfigure = replace;
            return this;
        }

        /**
         * With an HBase connection, creates the commit and timestamp tables when they are missing.
         *
         * @throws io.tidemark.config.InvalidConfigurationException when a configuration value is invalid
         * @throws IOException when the tables cannot be created
         * @throws io.tidemark.committable.CommitTableMismatchException when the commit table was created with other
         *         salt buckets than {@code tidemark.commit-table.regions} says
         */
        public TsoServer build() throws IOException {
            TsoSettings settings = new TsoSettings(Objects.requireNonNull(config, "config is required"));
            if (connection != null) {
                TsoTables.createIfMissing(connection, settings);
                if (timestampStorage == null) {
                    timestampStorage = new HBaseTimestampStorage(connection, settings.timestampTable());
                }
                if (commitTable == null) {
                    // With the TSOs' keys, read from the timestamp table: it certifies the low watermarks it raises.
                    commitTable = new HBaseCommitTable(connection, settings.commitTable().tableName(),
                            settings.commitTable().schema(), new TimestampTableKeys(connection,
                                    settings.timestampTable()));
                }
                if (clusterSettingsStore == null) {
                    clusterSettingsStore = new HBaseClusterSettingsStore(connection, settings.timestampTable());
                }
                if (elections == null) {
                    elections = ZooKeeperLeaseElection.factory(
                            ZooKeeperQuorum.connectString(connection.getConfiguration()), settings.leasePath(),
                            settings.leaseTiming());
                }
            }
            TimestampStorage timestamps = require(timestampStorage, "timestampStorage");
            CommitTable commits = require(commitTable, "commitTable");
            ClusterSettingsStore clusterSettings = require(clusterSettingsStore, "clusterSettingsStore");
            LeaseElectionFactory leases = require(elections, "leases");
            MetricRegistry metricRegistry = registry != null ? registry : new MetricRegistry();
            return new TsoServer(settings, timestamps, commits, clusterSettings, leases,
                    new TsoMetrics(metricRegistry), listener != null ? listener : new Listener() {
                    }, reconfigure);
        }

        private static <T> T require(@Nullable T part, String name) {
            if (part == null) {
                throw new IllegalStateException(name + " is required: set it, or set hbaseConnection for the HBase"
                        + " parts");
            }
            return part;
        }
    }
}
