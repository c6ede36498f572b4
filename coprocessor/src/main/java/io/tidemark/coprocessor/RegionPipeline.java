package io.tidemark.coprocessor;

import io.tidemark.coprocessor.binding.TableBinding;
import io.tidemark.coprocessor.compaction.CompactionGcStep;
import io.tidemark.coprocessor.fastpath.FastPathStep;
import io.tidemark.coprocessor.load.BrokenBindingStep;
import io.tidemark.coprocessor.load.LoadGuardStep;
import io.tidemark.coprocessor.snapshot.SnapshotReadStep;
import io.tidemark.table.TableFeature;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.regionserver.InternalScanner;
import org.apache.hadoop.hbase.regionserver.MiniBatchOperationInProgress;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.regionserver.ScanType;
import org.apache.hadoop.hbase.regionserver.Store;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The ordered steps of one region (docs/coprocessors.md, "One observer per table"): the table's description first,
 * which answers whoever may read the table, even while it is bulk loaded; then the load guard, which must see every
 * other request; then the fast path, which runs fast-path operations and raises the read clock for every generic
 * read before anything answers it, and with it single-region commits, which mint with that clock; then server-side
 * snapshot reads, which answer transactional reads; then compaction
 * GC, which checks the reads the client resolves and collects at compaction. Each hook runs the steps in that order;
 * a step that answers a Get ends it. The order lives here and nowhere else: no coprocessor priorities.
 */
public final class RegionPipeline {

    /** The pipeline of an observer that stands by (an observer of the earlier layout that another one leads). */
    static final RegionPipeline NONE = new RegionPipeline(List.of(), null);

    private final List<RegionStep> steps;
    /** Counts the refusals of the hooks; null for a pipeline that stands by. */
    private final @Nullable RegionMetrics metrics;

    private RegionPipeline(List<RegionStep> steps, @Nullable RegionMetrics metrics) {
        this.steps = Collections.unmodifiableList(steps);
        this.metrics = metrics;
    }

    /** The steps {@code binding}'s features call for, over the region's state. */
    static RegionPipeline of(RegionCoprocessorEnvironment env, TableBinding binding) {
        TransactionalRegion region = new TransactionalRegion(env, binding);
        List<RegionStep> steps = new ArrayList<>();
        steps.add(new TableDescriptionStep(region.region().getTableDescriptor()));
        if (binding.problem() != null) {
            steps.add(new BrokenBindingStep(binding.table().getNameAsString(), binding.problem()));
            return new RegionPipeline(steps, region.metrics());
        }
        steps.add(LoadGuardStep.of(region.region().getTableDescriptor()));
        if (binding.provides(TableFeature.FAST_PATH)) {
            FastPathStep fastPath = new FastPathStep(region);
            steps.add(fastPath);
            steps.add(fastPath.singleRegionCommits());
        }
        if (binding.provides(TableFeature.SERVER_SIDE_SNAPSHOTS)) {
            steps.add(new SnapshotReadStep(region));
        }
        if (binding.collectsGarbage()) {
            steps.add(new CompactionGcStep(region));
        }
        return new RegionPipeline(steps, region.metrics());
    }

    void preGetOp(ObserverContext<RegionCoprocessorEnvironment> ctx, Get get, List<Cell> result) throws IOException {
        try {
            for (RegionStep step : steps) {
                if (step.preGet(get, result)) {
                    ctx.bypass();
                    return;
                }
            }
        } catch (IOException e) {
            throw counted(e);
        } catch (RuntimeException e) {
            throw refused(e);
        }
    }

    void postGetOp(Get get, List<Cell> result) throws IOException {
        try {
            for (RegionStep step : steps) {
                step.postGet(get, result);
            }
        } catch (IOException e) {
            throw counted(e);
        } catch (RuntimeException e) {
            throw refused(e);
        }
    }

    void preScannerOpen(Scan scan) throws IOException {
        try {
            for (RegionStep step : steps) {
                step.preScannerOpen(scan);
            }
        } catch (IOException e) {
            throw counted(e);
        } catch (RuntimeException e) {
            throw refused(e);
        }
    }

    RegionScanner postScannerOpen(Scan scan, RegionScanner scanner) throws IOException {
        try {
            RegionScanner wrapped = scanner;
            for (RegionStep step : steps) {
                wrapped = step.postScannerOpen(scan, wrapped);
            }
            return wrapped;
        } catch (IOException e) {
            throw counted(e);
        } catch (RuntimeException e) {
            throw refused(e);
        }
    }

    void preBatchMutate(MiniBatchOperationInProgress<Mutation> batch) throws IOException {
        try {
            for (RegionStep step : steps) {
                step.preBatchMutate(batch);
            }
        } catch (IOException e) {
            throw counted(e);
        } catch (RuntimeException e) {
            throw refused(e);
        }
    }

    InternalScanner preCompact(Store store, InternalScanner scanner, ScanType scanType) throws IOException {
        try {
            InternalScanner wrapped = scanner;
            for (RegionStep step : steps) {
                wrapped = step.preCompact(store, wrapped, scanType);
            }
            return wrapped;
        } catch (IOException e) {
            throw counted(e);
        } catch (RuntimeException e) {
            throw refused(e);
        }
    }

    /** A hook's refusal, counted by its kind in the region's metrics, on its way to the client. */
    private IOException counted(IOException refusal) {
        if (metrics != null) {
            metrics.refusedInHook(refusal);
        }
        return refusal;
    }

    /** A runtime exception escaping a hook would make HBase abort the region server: it is a refused request. */
    private static DoNotRetryIOException refused(RuntimeException e) {
        return new DoNotRetryIOException("Tidemark refused the request: " + e, e);
    }
}
