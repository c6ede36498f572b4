package io.tidemark.client;

import com.codahale.metrics.Counter;
import com.codahale.metrics.Histogram;
import com.codahale.metrics.JmxReporter;
import com.codahale.metrics.MetricRegistry;
import com.codahale.metrics.Timer;
import io.tidemark.visibility.ReaderEffects;
import org.jspecify.annotations.Nullable;

import java.util.Objects;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Hashtable;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * The metrics of one {@link TransactionManager} (docs/monitoring.md lists them), kept in its own Dropwizard registry
 * ({@link TransactionManager#metricRegistry()}) and exported on JMX as
 * {@code tidemark.client:manager=<name>,name=<metric>}. The manager's name is {@code tidemark.client.metrics.name}; a
 * name that another open manager of this JVM already uses gets a suffix ({@code -2}, {@code -3}, ...), so no manager's
 * metrics hide another's. Thread-safe.
 */
public final class ClientMetrics {

    public static final String JMX_DOMAIN = "tidemark.client";
    public static final String BEGINS = "client.begins";
    /** Transactions with writes that committed. */
    public static final String COMMITS = "client.commits";
    /** {@link TransactionManager#commit} of a transaction with writes, until its outcome is known (any outcome). */
    public static final String COMMIT_LATENCY = "client.commit.latency";
    public static final String ABORTS_PREFIX = "client.aborts.";
    /** Commits whose outcome could not be determined ({@link TransactionState#OUTCOME_UNKNOWN}). */
    public static final String OUTCOME_UNKNOWN = "client.outcome-unknown";
    /** From sending a BEGIN to the TSO until its reply, as the application waits for it. */
    public static final String TSO_BEGIN_ROUND_TRIP = "client.tso.begin.round-trip";
    /** From sending a COMMIT to the TSO until its reply (batched mode: includes the TSO's commit-table write). */
    public static final String TSO_COMMIT_ROUND_TRIP = "client.tso.commit.round-trip";
    /** Commit records per commit-table round trip of the manager's group commit (low-latency mode). */
    public static final String COMMIT_RECORD_BATCH_SIZE = "client.commit-table.batch-size";
    /** Pending writers this manager's snapshot reads invalidated (they can never commit). */
    public static final String INVALIDATIONS = "client.invalidations";
    /** Missing shadow cells this manager's snapshot reads wrote for writers found committed in the commit table. */
    public static final String HEALS = "client.heals";

    /** Transactions committed with one request to the region holding every row they wrote (no TSO COMMIT). */
    public static final String SINGLE_REGION_COMMITS = "client.single-region.commits";
    /**
     * Single-region commits the region declined (a conflict or an undecided writer in a written row, a split region):
     * those transactions went on to commit, or abort, through the TSO.
     */
    public static final String SINGLE_REGION_DECLINES = "client.single-region.declines";

    /** Manager names registered in this JVM's JMX now. */
    private static final Set<String> NAMES_IN_USE = new HashSet<>();

    private final MetricRegistry registry = new MetricRegistry();
    private final Counter begins = registry.counter(BEGINS);
    private final Counter commits = registry.counter(COMMITS);
    private final Timer commitLatency = registry.timer(COMMIT_LATENCY);
    private final Map<TransactionAbortedException.Reason, Counter> aborts =
            new EnumMap<>(TransactionAbortedException.Reason.class);
    private final Counter outcomeUnknown = registry.counter(OUTCOME_UNKNOWN);
    private final Timer tsoBeginRoundTrip = registry.timer(TSO_BEGIN_ROUND_TRIP);
    private final Timer tsoCommitRoundTrip = registry.timer(TSO_COMMIT_ROUND_TRIP);
    private final Histogram commitRecordBatchSize = registry.histogram(COMMIT_RECORD_BATCH_SIZE);
    private final Counter invalidations = registry.counter(INVALIDATIONS);
    private final Counter heals = registry.counter(HEALS);
    private final Counter singleRegionCommits = registry.counter(SINGLE_REGION_COMMITS);
    private final Counter singleRegionDeclines = registry.counter(SINGLE_REGION_DECLINES);
    private final ReaderEffects readerEffects = new ReaderEffects() {
        @Override
        public void invalidatedPendingWriter(long writer) {
            invalidations.inc();
        }

        @Override
        public void healedShadowCell(long writer) {
            heals.inc();
        }
    };
    private @Nullable String name;
    private @Nullable JmxReporter jmx;

    ClientMetrics() {
        for (TransactionAbortedException.Reason reason : TransactionAbortedException.Reason.values()) {
            aborts.put(reason, registry.counter(abortName(reason)));
        }
    }

    /** Metric name of aborts for {@code reason}, e.g. {@code client.aborts.conflict}. */
    public static String abortName(TransactionAbortedException.Reason reason) {
        return ABORTS_PREFIX + reason.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The MBean name of metric {@code metric} of the manager named {@code manager}. */
    @SuppressWarnings("JdkObsolete") // ObjectName takes its keys as a Hashtable
    public static ObjectName objectName(String manager, String metric) {
        Hashtable<String, String> keys = new Hashtable<>();
        keys.put("manager", manager);
        keys.put("name", metric);
        try {
            return new ObjectName(JMX_DOMAIN, keys);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException("'" + manager + "' and '" + metric + "' cannot form a JMX name", e);
        }
    }

    /** Exports the metrics on JMX under {@code wantedName}, or under it with the first free suffix. */
    void startJmx(String wantedName) {
        String chosen;
        synchronized (NAMES_IN_USE) {
            chosen = wantedName;
            for (int suffix = 2; !NAMES_IN_USE.add(chosen); suffix++) {
                chosen = wantedName + "-" + suffix;
            }
        }
        String manager = chosen;
        jmx = JmxReporter.forRegistry(registry).inDomain(JMX_DOMAIN)
                .createsObjectNamesWith((type, domain, metric) -> objectName(manager, metric)).build();
        jmx.start();
        name = manager;
    }

    /** Unregisters the MBeans and frees the name. */
    void stopJmx() {
        if (jmx == null) {
            return;
        }
        jmx.stop();
        synchronized (NAMES_IN_USE) {
            NAMES_IN_USE.remove(name);
        }
        jmx = null;
    }

    /** The name in JMX ({@code manager=<name>}), or null before it is exported. */
    @Nullable String name() {
        return name;
    }

    MetricRegistry registry() {
        return registry;
    }

    void begun(long tsoRequestSentNanos) {
        begins.inc();
        tsoBeginRoundTrip.update(System.nanoTime() - tsoRequestSentNanos, TimeUnit.NANOSECONDS);
    }

    void tsoCommitAnswered(long tsoRequestSentNanos) {
        tsoCommitRoundTrip.update(System.nanoTime() - tsoRequestSentNanos, TimeUnit.NANOSECONDS);
    }

    void commitFinished(long commitCalledNanos) {
        commitLatency.update(System.nanoTime() - commitCalledNanos, TimeUnit.NANOSECONDS);
    }

    void committed() {
        commits.inc();
    }

    void singleRegionCommitted() {
        singleRegionCommits.inc();
    }

    void singleRegionDeclined() {
        singleRegionDeclines.inc();
    }

    void aborted(TransactionAbortedException.Reason reason) {
        Objects.requireNonNull(aborts.get(reason), "every reason has its counter").inc();
    }

    void outcomeUnknown() {
        outcomeUnknown.inc();
    }

    void commitRecordBatch(int records) {
        commitRecordBatchSize.update(records);
    }

    /** What this manager's snapshot reads tell about invalidations and heals. */
    ReaderEffects readerEffects() {
        return readerEffects;
    }
}
