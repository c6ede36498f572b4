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

    private final MetricRegistry registry;
    private final Counter begins;
    private final Counter commits;
    private final Map<AbortReason, Counter> aborts = new EnumMap<>(AbortReason.class);
    private final Counter evictions;
    private final Counter protocolErrors;
    private final Counter connections;

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
