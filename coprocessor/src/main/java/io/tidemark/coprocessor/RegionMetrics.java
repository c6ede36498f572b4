package io.tidemark.coprocessor;

import io.tidemark.table.BindingMismatchException;
import io.tidemark.table.TableLoadingException;
import io.tidemark.committable.CommitTableMismatchException;
import io.tidemark.visibility.ReaderEffects;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.metrics.Counter;
import org.apache.hadoop.hbase.metrics.MetricRegistry;

/**
 * What the Tidemark steps of one region do that an operator should see (docs/monitoring.md, "Region servers"), counted
 * into HBase's coprocessor metric registry of the region server ({@code getMetricRegistryForRegionServer()}), which
 * HBase publishes over JMX as the bean
 * {@code Hadoop:service=HBase,name=RegionServer,sub=Coprocessor.Region.CP_<observer class>}. HBase keeps one registry
 * per observer class and region server, and {@link MetricRegistry#counter} returns the counter already registered
 * under a name, so every region's instance adds to the same totals. Owned by the region's
 * {@link TransactionalRegion}; the counters are the only thing regions share, and HBase owns them.
 *
 * <p>As the {@link ReaderEffects} of server-side snapshot reads it counts the writers they invalidate and the shadow
 * cells they heal.
 */
public final class RegionMetrics implements ReaderEffects {

    /** Pending writers a server-side snapshot read invalidated. */
    public static final String READ_INVALIDATED_WRITERS = "serverReadInvalidatedWriters";
    /** Shadow cells a server-side snapshot read wrote for writers it found committed in the commit table. */
    public static final String READ_HEALED_SHADOW_CELLS = "serverReadHealedShadowCells";
    /** Versions compaction dropped below the low watermark. */
    public static final String COMPACTION_COLLECTED_VERSIONS = "compactionCollectedVersions";
    /** Fast-path operations the region ran or refused. */
    public static final String FAST_PATH_OPERATIONS = "fastPathOperations";
    /** Fast-path operations that ended with an error instead of an answer (conflicts, pending writers, claims). */
    public static final String FAST_PATH_REFUSALS = "fastPathRefusals";
    /** Single-region commit (and settle) requests the region received. */
    public static final String SINGLE_REGION_COMMIT_REQUESTS = "singleRegionCommitRequests";
    /** Single-region commits the region wrote. */
    public static final String SINGLE_REGION_COMMITS = "singleRegionCommits";
    /** Single-region commits the region declined (conflicts, undecided writers, split regions, settled requests). */
    public static final String SINGLE_REGION_COMMITS_DECLINED = "singleRegionCommitsDeclined";
    /** Reads refused because compaction may have collected versions of their snapshot (SNAPSHOT_TOO_OLD). */
    public static final String SNAPSHOT_TOO_OLD_REFUSALS = "snapshotTooOldRefusals";
    /** Transactional requests refused while the table is bulk loaded, and loaders' writes refused. */
    public static final String LOAD_GUARD_REFUSALS = "loadGuardRefusals";
    /** Requests refused for claims that do not match the table's binding or the cluster's recorded facts. */
    public static final String BINDING_REFUSALS = "bindingRefusals";

    private final Counter readInvalidatedWriters;
    private final Counter readHealedShadowCells;
    private final Counter compactionCollectedVersions;
    private final Counter fastPathOperations;
    private final Counter fastPathRefusals;
    private final Counter singleRegionCommitRequests;
    private final Counter singleRegionCommits;
    private final Counter singleRegionCommitsDeclined;
    private final Counter snapshotTooOldRefusals;
    private final Counter loadGuardRefusals;
    private final Counter bindingRefusals;

    RegionMetrics(MetricRegistry registry) {
        this.readInvalidatedWriters = registry.counter(READ_INVALIDATED_WRITERS);
        this.readHealedShadowCells = registry.counter(READ_HEALED_SHADOW_CELLS);
        this.compactionCollectedVersions = registry.counter(COMPACTION_COLLECTED_VERSIONS);
        this.fastPathOperations = registry.counter(FAST_PATH_OPERATIONS);
        this.fastPathRefusals = registry.counter(FAST_PATH_REFUSALS);
        this.singleRegionCommitRequests = registry.counter(SINGLE_REGION_COMMIT_REQUESTS);
        this.singleRegionCommits = registry.counter(SINGLE_REGION_COMMITS);
        this.singleRegionCommitsDeclined = registry.counter(SINGLE_REGION_COMMITS_DECLINED);
        this.snapshotTooOldRefusals = registry.counter(SNAPSHOT_TOO_OLD_REFUSALS);
        this.loadGuardRefusals = registry.counter(LOAD_GUARD_REFUSALS);
        this.bindingRefusals = registry.counter(BINDING_REFUSALS);
    }

    /** The counters of the region server that hosts the region of {@code env}. */
    static RegionMetrics of(RegionCoprocessorEnvironment env) {
        return new RegionMetrics(env.getMetricRegistryForRegionServer());
    }

    @Override
    public void invalidatedPendingWriter(long writer) {
        readInvalidatedWriters.increment();
    }

    @Override
    public void healedShadowCell(long writer) {
        readHealedShadowCells.increment();
    }

    /** A compaction dropped {@code versions} versions of one column. */
    public void collectedVersions(int versions) {
        compactionCollectedVersions.increment(versions);
    }

    /** A fast-path operation arrived; {@link #fastPathRefused()} follows when it gets no answer. */
    public void fastPathOperation() {
        fastPathOperations.increment();
    }

    public void fastPathRefused() {
        fastPathRefusals.increment();
    }

    public void singleRegionCommitRequest() {
        singleRegionCommitRequests.increment();
    }

    public void singleRegionCommitted() {
        singleRegionCommits.increment();
    }

    public void singleRegionCommitDeclined() {
        singleRegionCommitsDeclined.increment();
    }

    public void snapshotTooOld() {
        snapshotTooOldRefusals.increment();
    }

    /**
     * Counts what a hook refused, by the refusal's kind: the load guard's and the binding's refusals are only ever
     * thrown by hooks, so the pipeline counts them here, once. SNAPSHOT_TOO_OLD is also thrown while a scanner runs,
     * outside any hook, so the horizon counts it where it decides ({@link #snapshotTooOld()}).
     */
    void refusedInHook(Exception refusal) {
        if (refusal instanceof TableLoadingException) {
            loadGuardRefusals.increment();
        } else if (refusal instanceof BindingMismatchException || refusal instanceof CommitTableMismatchException) {
            bindingRefusals.increment();
        }
    }
}
