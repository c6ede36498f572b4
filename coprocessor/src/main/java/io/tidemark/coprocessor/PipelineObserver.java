package io.tidemark.coprocessor;

import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CoprocessorEnvironment;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.regionserver.InternalScanner;
import org.apache.hadoop.hbase.regionserver.MiniBatchOperationInProgress;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.regionserver.ScanType;
import org.apache.hadoop.hbase.regionserver.Store;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionLifeCycleTracker;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionRequest;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * A region observer that hands every hook to its region's {@link RegionPipeline}: the transactional observer, and the
 * observers of the layout of earlier versions ({@link LegacyObserver}). HBase starts one instance per region
 * incarnation, so the pipeline and the state it owns live exactly as long as the region stays open here.
 */
public abstract class PipelineObserver implements RegionCoprocessor, RegionObserver {

    private RegionPipeline pipeline = RegionPipeline.NONE;

    /** The pipeline this instance runs for the region of {@code env}. */
    protected abstract RegionPipeline pipelineFor(RegionCoprocessorEnvironment env);

    @Override
    public final void start(CoprocessorEnvironment env) throws IOException {
        pipeline = pipelineFor(RegionEnvironments.of(env, getClass()));
    }

    @Override
    public final Optional<RegionObserver> getRegionObserver() {
        return Optional.of(this);
    }

    @Override
    public final void preGetOp(ObserverContext<RegionCoprocessorEnvironment> ctx, Get get, List<Cell> result)
            throws IOException {
        pipeline.preGetOp(ctx, get, result);
    }

    @Override
    public final void postGetOp(ObserverContext<RegionCoprocessorEnvironment> ctx, Get get, List<Cell> result)
            throws IOException {
        pipeline.postGetOp(get, result);
    }

    @Override
    public final void preScannerOpen(ObserverContext<RegionCoprocessorEnvironment> ctx, Scan scan)
            throws IOException {
        pipeline.preScannerOpen(scan);
    }

    @Override
    public final RegionScanner postScannerOpen(ObserverContext<RegionCoprocessorEnvironment> ctx, Scan scan,
            RegionScanner scanner) throws IOException {
        return pipeline.postScannerOpen(scan, scanner);
    }

    @Override
    public final void preBatchMutate(ObserverContext<RegionCoprocessorEnvironment> ctx,
            MiniBatchOperationInProgress<Mutation> batch) throws IOException {
        pipeline.preBatchMutate(batch);
    }

    @Override
    public final InternalScanner preCompact(ObserverContext<RegionCoprocessorEnvironment> ctx, Store store,
            InternalScanner scanner, ScanType scanType, CompactionLifeCycleTracker tracker,
            CompactionRequest request) throws IOException {
        return pipeline.preCompact(store, scanner, scanType);
    }
}
