package io.tidemark.coprocessor;

import io.tidemark.committable.TimestampTableKeys;
import io.tidemark.coprocessor.binding.BoundCommitTable;
import io.tidemark.coprocessor.binding.ClusterFacts;
import io.tidemark.coprocessor.binding.RequestClaims;
import io.tidemark.coprocessor.binding.TableBinding;
import io.tidemark.coprocessor.horizon.GcHorizon;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.regionserver.Region;

/**
 * One open region's Tidemark state, owned by its one observer instance and shared by the steps of its
 * {@link RegionPipeline}: the table's binding, the bound commit table, the cluster's recorded facts, the check of
 * requests' claims against them, the garbage-collection horizon, the region's version store and its metrics. A reopened
 * region is a new instance: nothing here outlives the region's incarnation.
 */
public final class TransactionalRegion {

    private final Region region;
    private final TableBinding binding;
    private final BoundCommitTable commitTable;
    private final RequestClaims claims;
    private final GcHorizon horizon;
    private final RegionVersionStore store;
    private final RegionMetrics metrics;

    TransactionalRegion(RegionCoprocessorEnvironment env, TableBinding binding) {
        this.region = env.getRegion();
        this.binding = binding;
        this.metrics = RegionMetrics.of(env);
        this.commitTable = new BoundCommitTable(env.getConnection(), binding.commitTable(),
                new TimestampTableKeys(env.getConnection(), binding.timestampTable()));
        this.claims = new RequestClaims(binding, commitTable, new ClusterFacts(env.getConnection(),
                binding.timestampTable()));
        this.horizon = new GcHorizon(region.getRegionInfo().getRegionNameAsString(), metrics::snapshotTooOld);
        this.store = new RegionVersionStore(region);
    }

    public Region region() {
        return region;
    }

    public TableBinding binding() {
        return binding;
    }

    /** The bound commit table: the only one the region looks writers up in, invalidates through, or reads. */
    public BoundCommitTable commitTable() {
        return commitTable;
    }

    public RequestClaims claims() {
        return claims;
    }

    public GcHorizon horizon() {
        return horizon;
    }

    public RegionVersionStore store() {
        return store;
    }

    /** What the region's steps count for the region server's metrics (docs/monitoring.md). */
    public RegionMetrics metrics() {
        return metrics;
    }
}
