package io.tidemark.coprocessor.fastpath;

import io.tidemark.coprocessor.RegionStep;
import io.tidemark.coprocessor.RequestAttributes;
import io.tidemark.coprocessor.TransactionalRegion;
import io.tidemark.coprocessor.binding.RequestClaims;
import io.tidemark.fastpath.FastPathProtocol;
import io.tidemark.fastpath.FastPathRequest;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.regionserver.InternalScanner;
import org.apache.hadoop.hbase.regionserver.MiniBatchOperationInProgress;
import org.apache.hadoop.hbase.regionserver.ScanType;
import org.apache.hadoop.hbase.regionserver.Store;
import org.apache.hadoop.hbase.util.EnvironmentEdgeManager;

import java.io.IOException;
import java.util.List;

/**
 * The fast path of a region (docs/fast-path.md), before any step that answers reads:
 * <ul>
 *   <li>a Get carrying {@link FastPathProtocol#OPERATION} is a fast-path operation: it runs here and its answer
 *       replaces the Get's normal result;</li>
 *   <li>a Get or Scan of a generic transaction ({@link FastPathProtocol#TRANSACTION_START}) raises the region's read
 *       clock to its start timestamp before anything reads it;</li>
 *   <li>a tentative write of a generic transaction is refused when the row holds a newer fast-path write;</li>
 *   <li>a compaction drops the operation records that expired.</li>
 * </ul>
 * Every timestamp a request carries (a start, a session, a fresh timestamp) must be one the cluster's TSOs could have
 * handed out ({@link RequestClaims#checkTimestamp}): one from the future would raise the read clock, and so every
 * later version minted here, above every TSO timestamp for good. Each region incarnation gets a new step, so a new
 * {@link RegionClock} and incarnation.
 */
public final class FastPathStep implements RegionStep {

    private final RequestClaims claims;
    private final FastPathSettings settings;
    private final RegionClock clock;
    private final FastPathExecutor executor;
    private final GenericWriteCheck writeCheck;
    private final TransactionalRegion region;

    public FastPathStep(TransactionalRegion region) {
        this.region = region;
        this.claims = region.claims();
        this.settings = new FastPathSettings(region.binding().settings().hadoopConfiguration());
        this.clock = new RegionClock();
        this.executor = new FastPathExecutor(region.region(), clock, region.commitTable(), settings);
        this.writeCheck = new GenericWriteCheck(settings.writeCheck());
    }

    /**
     * The region's step of single-region commits, which mints with this step's clock and keeps its records the way
     * this step does; it must run after this one, which raises the clock for every generic read first.
     */
    public SingleRegionCommitStep singleRegionCommits() {
        return new SingleRegionCommitStep(region, clock, settings);
    }

    @Override
    public boolean preGet(Get get, List<Cell> result) throws IOException {
        if (FastPathRequest.isFastPath(get)) {
            region.metrics().fastPathOperation();
            try {
                result.addAll(execute(FastPathRequest.fromGet(get)));
            } catch (IOException | RuntimeException refused) {
                region.metrics().fastPathRefused();
                throw refused;
            }
            return true;
        }
        observeRead(RequestAttributes.transactionStart(get));
        return false;
    }

    @Override
    public void preScannerOpen(Scan scan) throws IOException {
        observeRead(RequestAttributes.transactionStart(scan));
    }

    @Override
    public void preBatchMutate(MiniBatchOperationInProgress<Mutation> batch) throws IOException {
        for (int i = 0; i < batch.size(); i++) {
            Mutation m = batch.getOperation(i);
            long start = RequestAttributes.transactionStart(m);
            if (start != Timestamps.NONE) {
                writeCheck.check(region.region(), clock, m.getRow(), start);
            }
        }
    }

    @Override
    public InternalScanner preCompact(Store store, InternalScanner scanner, ScanType scanType) {
        return new OperationRecordExpiry(scanner, EnvironmentEdgeManager.currentTime() - settings.recordTtlMillis());
    }

    private List<Cell> execute(FastPathRequest request) throws IOException {
        claims.checkTimestamp(request.session(), "fast-path session timestamp");
        if (request.freshTimestamp() != Timestamps.NONE) {
            claims.checkTimestamp(request.freshTimestamp(), "fast-path fresh timestamp");
        }
        return executor.execute(request);
    }

    private void observeRead(long startTimestamp) throws IOException {
        if (startTimestamp != Timestamps.NONE) {
            claims.checkTimestamp(startTimestamp, "start timestamp");
            clock.observeRead(startTimestamp, settings.readWaitMillis());
        }
    }
}
