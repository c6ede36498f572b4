package io.tidemark.coprocessor.compaction;

import io.tidemark.coprocessor.RegionStep;
import io.tidemark.coprocessor.RequestAttributes;
import io.tidemark.coprocessor.TransactionalRegion;
import io.tidemark.coprocessor.horizon.GcHorizon;
import io.tidemark.coprocessor.horizon.HorizonCheckingScanner;
import io.tidemark.encoding.SnapshotAttribute;
import io.tidemark.fastpath.FastPathProtocol;
import io.tidemark.table.TransactionalTableLayout;
import io.tidemark.timestamp.Timestamps;
import io.tidemark.visibility.WriterResolver;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.OperationWithAttributes;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.regionserver.InternalScanner;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.regionserver.ScanType;
import org.apache.hadoop.hbase.regionserver.Store;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.List;

/**
 * Garbage collection at compaction time for column families marked
 * {@value TransactionalTableLayout#TRANSACTIONAL_FAMILY_KEY} (docs/coprocessors.md): when a compaction starts, reads
 * the low watermark the TSO persisted in the table's bound commit table and lets a {@link VersionCollector} drop the
 * versions no snapshot that can still commit will read.
 *
 * <p>Before a compaction collects, it raises the region's {@link GcHorizon} to its low watermark. Transactional reads
 * the client resolves itself (marked {@value FastPathProtocol#TRANSACTION_START}, without
 * {@value SnapshotAttribute#NAME}) are checked against that horizon here, after each Get and each scanner call;
 * reads resolved in the region server are checked by the snapshot step.
 */
public final class CompactionGcStep implements RegionStep {

    private static final Logger LOG = LoggerFactory.getLogger(CompactionGcStep.class);

    private final TransactionalRegion region;

    public CompactionGcStep(TransactionalRegion region) {
        this.region = region;
    }

    @Override
    public InternalScanner preCompact(Store store, InternalScanner scanner, ScanType scanType) {
        if (!TransactionalTableLayout.isTransactionalFamilyValue(store.getColumnFamilyDescriptor().getValue(
                TransactionalTableLayout.TRANSACTIONAL_FAMILY_KEY))) {
            return scanner;
        }
        long lowWatermark;
        try {
            lowWatermark = region.commitTable().readLowWatermark();
        } catch (IOException e) {
            // A compaction that fails leaves store files piling up until HBase blocks writes: compact without GC.
            LOG.warn("compacting {} without garbage collection: cannot read the low watermark from {}: {}",
                    store.getColumnFamilyName(), region.commitTable().name(), e.toString());
            return scanner;
        }
        if (lowWatermark <= 0) {
            return scanner;
        }
        // Before anything is collected: a read that sees the compacted files must also see the raised horizon.
        region.horizon().raise(lowWatermark);
        boolean allFiles = scanType == ScanType.COMPACT_DROP_DELETES;
        LOG.debug("collecting versions of {} at or below low watermark {} ({} compaction)",
                store.getColumnFamilyName(), lowWatermark, allFiles ? "major" : "minor");
        return new GarbageCollectingScanner(scanner, new VersionCollector(lowWatermark, allFiles,
                WriterResolver.forCompaction(region.commitTable(), region.store())));
    }

    @Override
    public void postGet(Get get, List<Cell> result) throws IOException {
        long snapshot = clientResolvedSnapshot(get);
        if (snapshot != Timestamps.NONE) {
            region.horizon().check(snapshot, region.commitTable());
        }
    }

    @Override
    public RegionScanner postScannerOpen(Scan scan, RegionScanner scanner) throws IOException {
        long snapshot = clientResolvedSnapshot(scan);
        if (snapshot == Timestamps.NONE) {
            return scanner;
        }
        GcHorizon horizon = region.horizon();
        return new HorizonCheckingScanner(scanner, () -> horizon.check(snapshot, region.commitTable()));
    }

    /** The snapshot of a transactional read the client resolves itself; otherwise {@link Timestamps#NONE}. */
    private static long clientResolvedSnapshot(OperationWithAttributes read) throws IOException {
        if (read.getAttribute(SnapshotAttribute.NAME) != null) {
            return Timestamps.NONE;
        }
        return RequestAttributes.transactionStart(read);
    }
}
