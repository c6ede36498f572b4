package io.tidemark.coprocessor.compaction;

import io.tidemark.committable.CommitTableSettings;
import io.tidemark.committable.HBaseCommitTable;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.coprocessor.RegionEnvironments;
import io.tidemark.coprocessor.RegionVersionStore;
import io.tidemark.coprocessor.horizon.GcHorizon;
import io.tidemark.coprocessor.horizon.HorizonCheckingScanner;
import io.tidemark.encoding.SnapshotAttribute;
import io.tidemark.fastpath.FastPathProtocol;
import io.tidemark.table.TransactionalTableLayout;
import io.tidemark.timestamp.Timestamps;
import io.tidemark.visibility.WriterResolver;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CoprocessorEnvironment;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.OperationWithAttributes;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.regionserver.InternalScanner;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.regionserver.ScanType;
import org.apache.hadoop.hbase.regionserver.Store;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionLifeCycleTracker;
import org.apache.hadoop.hbase.regionserver.compactions.CompactionRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Garbage collection at compaction time for column families marked
 * {@value TransactionalTableLayout#TRANSACTIONAL_FAMILY_KEY} (docs/coprocessors.md). Reads the low watermark the TSO
 * persisted in the commit table when a compaction starts and lets a {@link VersionCollector} drop the versions no
 * snapshot that can still commit will read. The commit table comes from the coprocessor's properties
 * ({@value TidemarkConfig#COMMIT_TABLE}, {@value TidemarkConfig#COMMIT_TABLE_REGIONS}), else from the region server's
 * configuration, else the defaults.
 *
 * <p>Before a compaction collects, it raises the region's {@link GcHorizon} to its low watermark. Transactional reads
 * the client resolves itself (marked {@value FastPathProtocol#TRANSACTION_START}, without
 * {@value SnapshotAttribute#NAME}) are checked against that horizon here, after each Get and each scanner call; reads
 * resolved by the snapshot observer are checked there.
 */
public final class CompactionObserver implements RegionCoprocessor, RegionObserver {

    private static final Logger LOG = LoggerFactory.getLogger(CompactionObserver.class);

    private RegionCoprocessorEnvironment environment;
    private HBaseCommitTable commitTable;
    private boolean collectsGarbage;

    @Override
    public void start(CoprocessorEnvironment env) throws IOException {
        environment = RegionEnvironments.of(env, CompactionObserver.class);
        commitTable = new HBaseCommitTable(environment.getConnection(),
                new CommitTableSettings(new TidemarkConfig(env.getConfiguration())));
        collectsGarbage = GcHorizon.appliesTo(environment.getRegion().getTableDescriptor());
    }

    @Override
    public void stop(CoprocessorEnvironment env) {
        if (environment != null) {
            GcHorizon.forget(environment.getRegion());
        }
    }

    @Override
    public Optional<RegionObserver> getRegionObserver() {
        return Optional.of(this);
    }

    @Override
    public InternalScanner preCompact(ObserverContext<RegionCoprocessorEnvironment> c, Store store,
            InternalScanner scanner, ScanType scanType, CompactionLifeCycleTracker tracker,
            CompactionRequest request) throws IOException {
        if (!TransactionalTableLayout.isTransactionalFamilyValue(store.getColumnFamilyDescriptor().getValue(
                TransactionalTableLayout.TRANSACTIONAL_FAMILY_KEY))) {
            return scanner;
        }
        long lowWatermark;
        try {
            lowWatermark = commitTable.readLowWatermark();
        } catch (IOException e) {
            // A compaction that fails leaves store files piling up until HBase blocks writes: compact without GC.
            LOG.warn("compacting {} without garbage collection: cannot read the low watermark from {}: {}",
                    store.getColumnFamilyName(), commitTable.tableName(), e.toString());
            return scanner;
        }
        if (lowWatermark <= 0) {
            return scanner;
        }
        // Before anything is collected: a read that sees the compacted files must also see the raised horizon.
        GcHorizon.of(environment.getRegion()).raise(lowWatermark);
        boolean allFiles = scanType == ScanType.COMPACT_DROP_DELETES;
        LOG.debug("collecting versions of {} at or below low watermark {} ({} compaction)",
                store.getColumnFamilyName(), lowWatermark, allFiles ? "major" : "minor");
        return new GarbageCollectingScanner(scanner, new VersionCollector(lowWatermark, allFiles,
                WriterResolver.forCompaction(commitTable, new RegionVersionStore(environment.getRegion()))));
    }

    @Override
    public void postGetOp(ObserverContext<RegionCoprocessorEnvironment> c, Get get, List<Cell> result)
            throws IOException {
        long snapshot = clientResolvedSnapshot(get);
        if (snapshot != Timestamps.NONE) {
            GcHorizon.of(environment.getRegion()).check(snapshot, commitTable);
        }
    }

    @Override
    public RegionScanner postScannerOpen(ObserverContext<RegionCoprocessorEnvironment> c, Scan scan,
            RegionScanner s) throws IOException {
        long snapshot = clientResolvedSnapshot(scan);
        if (snapshot == Timestamps.NONE) {
            return s;
        }
        GcHorizon horizon = GcHorizon.of(environment.getRegion());
        return new HorizonCheckingScanner(s, () -> horizon.check(snapshot, commitTable));
    }

    /**
     * The snapshot of a transactional read the client resolves itself, when garbage is collected here; otherwise
     * {@link Timestamps#NONE}.
     */
    private long clientResolvedSnapshot(OperationWithAttributes read) throws IOException {
        if (!collectsGarbage || read.getAttribute(SnapshotAttribute.NAME) != null) {
            return Timestamps.NONE;
        }
        try {
            return FastPathProtocol.longAttribute(read, FastPathProtocol.TRANSACTION_START, Timestamps.NONE);
        } catch (IllegalArgumentException e) {
            throw new DoNotRetryIOException(e.getMessage(), e);
        }
    }
}
