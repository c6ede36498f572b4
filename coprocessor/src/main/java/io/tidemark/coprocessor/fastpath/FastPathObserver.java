package io.tidemark.coprocessor.fastpath;

import io.tidemark.committable.CommitTableSettings;
import io.tidemark.committable.HBaseCommitTable;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.coprocessor.RegionEnvironments;
import io.tidemark.fastpath.FastPathProtocol;
import io.tidemark.fastpath.FastPathRequest;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CoprocessorEnvironment;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.OperationWithAttributes;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.regionserver.InternalScanner;
import org.apache.hadoop.hbase.regionserver.MiniBatchOperationInProgress;
import org.apache.hadoop.hbase.regionserver.ScanType;
import org.apache.hadoop.hbase.regionserver.Store;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionLifeCycleTracker;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionRequest;
import org.apache.hadoop.hbase.util.EnvironmentEdgeManager;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * The fast-path coprocessor (docs/fast-path.md). Attach it to a transactional table
 * ({@code TableDescriptorBuilder.setCoprocessor(FastPathObserver.class.getName())}); one instance serves one region.
 *
 * <ul>
 *   <li>A Get carrying {@link FastPathProtocol#OPERATION} is a fast-path operation: it is run here and its answer
 *       replaces the Get's normal result.</li>
 *   <li>A Get or Scan of a generic transaction ({@link FastPathProtocol#TRANSACTION_START}) raises the region's read
 *       clock to its start timestamp before reading.</li>
 *   <li>A tentative write of a generic transaction is refused when the row holds a newer fast-path write.</li>
 *   <li>A compaction drops the operation records that expired.</li>
 * </ul>
 * Each opening of a region starts a new instance, with a new {@link RegionClock} and so a new incarnation.
 */
public final class FastPathObserver implements RegionCoprocessor, RegionObserver {

    private FastPathSettings settings;
    private RegionClock clock;
    private FastPathExecutor executor;
    private GenericWriteCheck writeCheck;

    @Override
    public void start(CoprocessorEnvironment env) throws IOException {
        RegionCoprocessorEnvironment region = RegionEnvironments.of(env, FastPathObserver.class);
        this.settings = new FastPathSettings(region.getConfiguration());
        this.clock = new RegionClock();
        this.executor = new FastPathExecutor(region.getRegion(), clock, new HBaseCommitTable(region.getConnection(),
                new CommitTableSettings(new TidemarkConfig(region.getConfiguration()))), settings);
        this.writeCheck = new GenericWriteCheck(settings.writeCheck());
    }

    @Override
    public Optional<RegionObserver> getRegionObserver() {
        return Optional.of(this);
    }

    @Override
    public void preGetOp(ObserverContext<RegionCoprocessorEnvironment> ctx, Get get, List<Cell> result)
            throws IOException {
        if (FastPathRequest.isFastPath(get)) {
            try {
                result.addAll(executor.execute(FastPathRequest.fromGet(get)));
            } catch (RuntimeException e) {
                // A runtime exception from a coprocessor would take the region server down; this is bad input.
                throw new DoNotRetryIOException("fast-path operation refused: " + e.getMessage(), e);
            }
            ctx.bypass();
            return;
        }
        observeRead(transactionStart(get));
    }

    @Override
    public void preScannerOpen(ObserverContext<RegionCoprocessorEnvironment> ctx, Scan scan) throws IOException {
        observeRead(transactionStart(scan));
    }

    @Override
    public void preBatchMutate(ObserverContext<RegionCoprocessorEnvironment> ctx,
            MiniBatchOperationInProgress<Mutation> miniBatchOp) throws IOException {
        for (int i = 0; i < miniBatchOp.size(); i++) {
            Mutation m = miniBatchOp.getOperation(i);
            long start = transactionStart(m);
            if (start != Timestamps.NONE) {
                writeCheck.check(ctx.getEnvironment().getRegion(), clock, m.getRow(), start);
            }
        }
    }

    @Override
    public InternalScanner preCompact(ObserverContext<RegionCoprocessorEnvironment> c, Store store,
            InternalScanner scanner, ScanType scanType, CompactionLifeCycleTracker tracker,
            CompactionRequest request) {
        return new OperationRecordExpiry(scanner, EnvironmentEdgeManager.currentTime() - settings.recordTtlMillis());
    }

    private void observeRead(long startTimestamp) throws IOException {
        if (startTimestamp != Timestamps.NONE) {
            clock.observeRead(startTimestamp, settings.readWaitMillis());
        }
    }

    private static long transactionStart(OperationWithAttributes op) throws DoNotRetryIOException {
        try {
            return FastPathProtocol.longAttribute(op, FastPathProtocol.TRANSACTION_START, Timestamps.NONE);
        } catch (IllegalArgumentException e) {
            throw new DoNotRetryIOException(e.getMessage(), e);
        }
    }
}
