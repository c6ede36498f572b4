package io.tidemark.tso;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import io.tidemark.protocol.AbortReason;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

/**
 * The TSO's metrics, registered under fixed names (docs list them). Counters rather than meters on the request
 * path: a counter increment is one uncontended add.
 */
public final class TsoMetrics {

    public static final String BEGINS = "tso.begins";
    public static final String COMMITS = "tso.commits";
    public static final String ABORTS_PREFIX = "tso.aborts.";
    public static final String EVICTIONS = "tso.conflict-map.evictions";
    public static final String LOW_WATERMARK = "tso.low-watermark";
    public static final String EPOCH = "tso.epoch";
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

    private final MetricRegistry registry;
    private final Counter begins;
    private final Counter commits;
    private final Map<AbortReason, Counter> aborts = new EnumMap<>(AbortReason.class);
    private final Counter evictions;
    private final Counter protocolErrors;
    private final Counter connections;
    private final Counter notAuthorizedCommits;
    private final Counter oversizedCommits;
    private final Counter refusedConnections;
    private final Counter handshakeTimeouts;
    private final Counter idleClosed;
    private final Counter replyStalls;
    private final Counter readPauses;

    public TsoMetrics(MetricRegistry registry) {
        this.registry = registry;
        this.begins = registry.counter(BEGINS);
        this.commits = registry.counter(COMMITS);
        for (AbortReason reason : AbortReason.values()) {
            aborts.put(reason, registry.counter(abortName(reason)));
        }
        this.evictions = registry.counter(EVICTIONS);
        this.protocolErrors = registry.counter(PROTOCOL_ERRORS);
        this.connections = registry.counter(CONNECTIONS);
        this.notAuthorizedCommits = registry.counter(NOT_AUTHORIZED_COMMITS);
        this.oversizedCommits = registry.counter(OVERSIZED_COMMITS);
        this.refusedConnections = registry.counter(REFUSED_CONNECTIONS);
        this.handshakeTimeouts = registry.counter(HANDSHAKE_TIMEOUTS);
        this.idleClosed = registry.counter(IDLE_CLOSED);
        this.replyStalls = registry.counter(REPLY_STALLS);
        this.readPauses = registry.counter(READ_PAUSES);
    }

    /** Metric name of aborts for {@code reason}, e.g. {@code tso.aborts.below-low-watermark}. */
    public static String abortName(AbortReason reason) {
        return ABORTS_PREFIX + reason.name().toLowerCase(Locale.ROOT).replace('_', '-');
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
        return aborts.get(reason);
    }

    public Counter evictions() {
        return evictions;
    }

    public Counter protocolErrors() {
        return protocolErrors;
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
