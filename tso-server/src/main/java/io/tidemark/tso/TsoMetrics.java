package io.tidemark.tso;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Gauge;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import io.tidemark.protocol.AbortReason;
import io.tidemark.tso.monitoring.EventLoopLatencyReservoir;
import io.tidemark.tso.monitoring.TsoRole;
import io.tidemark.tso.monitoring.TsoStatus;
import org.jspecify.annotations.Nullable;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The TSO's metrics, registered under fixed names (docs/monitoring.md lists them; JMX and /metrics
 * export them). Counters rather than meters on the request path: a counter increment is one uncontended add. The
 * latency timers of BEGIN and COMMIT record into an {@link EventLoopLatencyReservoir}: about two clock reads and a
 * few plain increments per request on the event loop.
 */
public final class TsoMetrics {

    public static final String BEGINS = "tso.begins";
    public static final String COMMITS = "tso.commits";
    public static final String ABORTS_PREFIX = "tso.aborts.";
    /** From receiving a BEGIN to writing its reply (in batched mode this includes waiting for durable commits). */
    public static final String BEGIN_LATENCY = "tso.begin.latency";
    /**
     * From receiving a COMMIT to writing its reply, whatever the outcome (batched: includes the commit-table write).
     */
    public static final String COMMIT_LATENCY = "tso.commit.latency";
    public static final String EVICTIONS = "tso.conflict-map.evictions";
    public static final String CONFLICT_MAP_FILL = "tso.conflict-map.fill";
    public static final String LOW_WATERMARK = "tso.low-watermark";
    public static final String EPOCH = "tso.epoch";
    /** 1 while this TSO serves (holds a valid lease), else 0. */
    public static final String ACTIVE = "tso.active";
    /** The {@link TsoRole} as a number: 0 starting, 1 standby, 2 active, 3 stopped. */
    public static final String ROLE = "tso.role";
    /** How long the lease stays valid without another renewal; -1 unless active. */
    public static final String LEASE_REMAINING = "tso.lease.remaining-ms";
    public static final String UPTIME = "tso.uptime-seconds";
    /**
     * Errors the TSO itself met (failed commit-table and low-watermark writes, no timestamp to hand out, internal
     * errors, a failed take-over, stopping); not clients' bad requests.
     */
    public static final String ERRORS = "tso.errors";
    public static final String PROTOCOL_ERRORS = "tso.protocol-errors";
    public static final String CONNECTIONS = "tso.connections";
    public static final String BATCH_SIZE = "tso.batch.size";
    public static final String COMMIT_TABLE_WRITE = "tso.batch.commit-table-write";
    public static final String COMMIT_TABLE_FAILURES = "tso.batch.commit-table-failures";
    public static final String NOT_AUTHORIZED_COMMITS = "tso.commits.not-authorized";
    public static final String OVERSIZED_COMMITS = "tso.commits.write-set-too-large";
    public static final String REFUSED_CONNECTIONS = "tso.connections.refused";
    public static final String HANDSHAKE_TIMEOUTS = "tso.connections.handshake-timeouts";
    public static final String IDLE_CLOSED = "tso.connections.idle-closed";
    public static final String REPLY_STALLS = "tso.connections.reply-stalls";
    public static final String READ_PAUSES = "tso.connections.read-pauses";
    public static final String NOT_AUTHORIZED_FENCES = "tso.fences.not-authorized";
    public static final String DUPLICATE_COMMITS = "tso.commits.duplicate";
    public static final String ADDRESS_LIMITED = "tso.connections.address-limited";
    public static final String RECLAIMED = "tso.connections.reclaimed";
    public static final String ACCEPT_FAILURES = "tso.connections.accept-failures";
    public static final String FRAME_TIMEOUTS = "tso.connections.frame-timeouts";
    public static final String FRAME_BUDGET_CLOSED = "tso.connections.frame-budget-closed";
    public static final String ALLOCATION_FAILURES = "tso.connections.allocation-failures";
    public static final String THROTTLED = "tso.connections.throttled";
    public static final String BUFFERED_FRAME_BYTES = "tso.buffered-frame-bytes";
    public static final String HTTP_REQUEST_TIMEOUTS = "tso.http.request-timeouts";

    /** The last error, with when it happened. */
    public static final class LastError {
        private final String message;
        private final long atNanos;

        LastError(String message, long atNanos) {
            this.message = message;
            this.atNanos = atNanos;
        }

        public String message() {
            return message;
        }

        public long ageMillis() {
            return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - atNanos);
        }
    }

    private final MetricRegistry registry;
    private final Counter begins;
    private final Counter commits;
    private final Map<AbortReason, Counter> aborts = new EnumMap<>(AbortReason.class);
    private final Timer beginLatency;
    private final Timer commitLatency;
    private final Counter evictions;
    private final Counter errors;
    private final Counter protocolErrors;
    private final Counter connections;
    private final Counter notAuthorizedCommits;
    private final Counter oversizedCommits;
    private final Counter refusedConnections;
    private final Counter handshakeTimeouts;
    private final Counter idleClosed;
    private final Counter replyStalls;
    private final Counter readPauses;
    private final Counter notAuthorizedFences;
    private final Counter duplicateCommits;
    private final Counter addressLimited;
    private final Counter reclaimed;
    private final Counter acceptFailures;
    private final Counter frameTimeouts;
    private final Counter frameBudgetClosed;
    private final Counter allocationFailures;
    private final Counter throttled;
    private final Counter httpRequestTimeouts;
    private volatile @Nullable LastError lastError;

    public TsoMetrics(MetricRegistry registry) {
        this.registry = registry;
        this.begins = registry.counter(BEGINS);
        this.commits = registry.counter(COMMITS);
        for (AbortReason reason : AbortReason.values()) {
            aborts.put(reason, registry.counter(abortName(reason)));
        }
        this.beginLatency = registry.timer(BEGIN_LATENCY, () -> new Timer(new EventLoopLatencyReservoir()));
        this.commitLatency = registry.timer(COMMIT_LATENCY, () -> new Timer(new EventLoopLatencyReservoir()));
        this.evictions = registry.counter(EVICTIONS);
        this.errors = registry.counter(ERRORS);
        this.protocolErrors = registry.counter(PROTOCOL_ERRORS);
        this.connections = registry.counter(CONNECTIONS);
        this.notAuthorizedCommits = registry.counter(NOT_AUTHORIZED_COMMITS);
        this.oversizedCommits = registry.counter(OVERSIZED_COMMITS);
        this.refusedConnections = registry.counter(REFUSED_CONNECTIONS);
        this.handshakeTimeouts = registry.counter(HANDSHAKE_TIMEOUTS);
        this.idleClosed = registry.counter(IDLE_CLOSED);
        this.replyStalls = registry.counter(REPLY_STALLS);
        this.readPauses = registry.counter(READ_PAUSES);
        this.notAuthorizedFences = registry.counter(NOT_AUTHORIZED_FENCES);
        this.duplicateCommits = registry.counter(DUPLICATE_COMMITS);
        this.addressLimited = registry.counter(ADDRESS_LIMITED);
        this.reclaimed = registry.counter(RECLAIMED);
        this.acceptFailures = registry.counter(ACCEPT_FAILURES);
        this.frameTimeouts = registry.counter(FRAME_TIMEOUTS);
        this.frameBudgetClosed = registry.counter(FRAME_BUDGET_CLOSED);
        this.allocationFailures = registry.counter(ALLOCATION_FAILURES);
        this.throttled = registry.counter(THROTTLED);
        this.httpRequestTimeouts = registry.counter(HTTP_REQUEST_TIMEOUTS);
    }

    /** Metric name of aborts for {@code reason}, e.g. {@code tso.aborts.below-low-watermark}. */
    public static String abortName(AbortReason reason) {
        return ABORTS_PREFIX + reason.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Registers the gauges that read the server's state: role, epoch, low watermark, conflict-map fill, lease. */
    void registerStatusGauges(Supplier<TsoStatus> status) {
        registry.register(ACTIVE, (Gauge<Integer>) () -> status.get().role() == TsoRole.ACTIVE ? 1 : 0);
        registry.register(ROLE, (Gauge<Integer>) () -> status.get().role().code());
        registry.register(EPOCH, (Gauge<Long>) () -> status.get().epoch());
        registry.register(LOW_WATERMARK, (Gauge<Long>) () -> status.get().lowWatermark());
        registry.register(CONFLICT_MAP_FILL, (Gauge<Double>) () -> status.get().conflictMapFill());
        registry.register(LEASE_REMAINING, (Gauge<Long>) () -> status.get().leaseRemainingMs());
        registry.register(UPTIME, (Gauge<Long>) () -> TimeUnit.MILLISECONDS.toSeconds(status.get().uptimeMs()));
    }

    /** Registers the gauge of bytes held in partly received frames over all connections. */
    public void registerFrameBudget(Supplier<Long> bufferedBytes) {
        registry.register(BUFFERED_FRAME_BYTES, (Gauge<Long>) bufferedBytes::get);
    }

    public MetricRegistry registry() {
        return registry;
    }

    public Counter begins() {
        return begins;
    }

    public Counter commits() {
        return commits;
    }

    public Counter aborts(AbortReason reason) {
        return Objects.requireNonNull(aborts.get(reason), "every reason has its counter");
    }

    /** A BEGIN received at {@code receivedNanos} ({@link System#nanoTime()}) is answered now. Event loop only. */
    public void beginAnswered(long receivedNanos) {
        beginLatency.update(System.nanoTime() - receivedNanos, TimeUnit.NANOSECONDS);
    }

    /** A COMMIT received at {@code receivedNanos} ({@link System#nanoTime()}) is answered now. Event loop only. */
    public void commitAnswered(long receivedNanos) {
        commitLatency.update(System.nanoTime() - receivedNanos, TimeUnit.NANOSECONDS);
    }

    public Counter evictions() {
        return evictions;
    }

    public Counter protocolErrors() {
        return protocolErrors;
    }

    /** Counts an error the TSO met and remembers it as the last one (shown by /health); the caller logs it. */
    public void error(String message) {
        errors.inc();
        lastError = new LastError(message, System.nanoTime());
    }

    /** The last error, or null when there was none. */
    public @Nullable LastError lastError() {
        return lastError;
    }

    /** Open client connections. */
    public Counter connections() {
        return connections;
    }

    /** COMMITs refused because their token was not issued for their start timestamp to their client. */
    public Counter notAuthorizedCommits() {
        return notAuthorizedCommits;
    }

    /** COMMITs refused because their write set exceeded the cap. */
    public Counter oversizedCommits() {
        return oversizedCommits;
    }

    /** Connections refused at accept because the TSO had as many as it allows. */
    public Counter refusedConnections() {
        return refusedConnections;
    }

    /** Connections closed because they did not complete TLS and HELLO in time. */
    public Counter handshakeTimeouts() {
        return handshakeTimeouts;
    }

    /** Connections closed because they sent nothing and waited for nothing for the idle timeout. */
    public Counter idleClosed() {
        return idleClosed;
    }

    /** Connections closed because their client did not read its replies for the stall timeout. */
    public Counter replyStalls() {
        return replyStalls;
    }

    /** Times the TSO stopped reading a connection: too many unsent replies or requests in flight. */
    public Counter readPauses() {
        return readPauses;
    }

    /** Fences refused because their client may not raise fences. */
    public Counter notAuthorizedFences() {
        return notAuthorizedFences;
    }

    /** COMMITs refused because their start timestamp had committed already. */
    public Counter duplicateCommits() {
        return duplicateCommits;
    }

    /** Connections refused at accept because their address had its share of connections, or of new ones a second. */
    public Counter addressLimited() {
        return addressLimited;
    }

    /** Idle connections closed to give their slot to a new connection at the connection limit. */
    public Counter reclaimed() {
        return reclaimed;
    }

    /** Connections the operating system could not accept (out of file descriptors); each is closed at once. */
    public Counter acceptFailures() {
        return acceptFailures;
    }

    /** Connections closed because a request frame did not arrive in full within the frame timeout. */
    public Counter frameTimeouts() {
        return frameTimeouts;
    }

    /** Connections closed because partly received frames over all connections passed their budget. */
    public Counter frameBudgetClosed() {
        return frameBudgetClosed;
    }

    /** Connections closed because memory for what they sent could not be allocated. */
    public Counter allocationFailures() {
        return allocationFailures;
    }

    /** Times the TSO stopped reading a connection that used up its work per second. */
    public Counter throttled() {
        return throttled;
    }

    /** HTTP requests closed because they did not arrive in full within the request timeout. */
    public Counter httpRequestTimeouts() {
        return httpRequestTimeouts;
    }

    /** Registers the metrics of batched mode now, so that they are exported (as zeros) before the first batch. */
    public void registerBatchedMode() {
        batchSize();
        commitTableWrite();
        commitTableFailures();
    }

    public Histogram batchSize() {
        return registry.histogram(BATCH_SIZE);
    }

    public Timer commitTableWrite() {
        return registry.timer(COMMIT_TABLE_WRITE);
    }

    public Counter commitTableFailures() {
        return registry.counter(COMMIT_TABLE_FAILURES);
    }
}
