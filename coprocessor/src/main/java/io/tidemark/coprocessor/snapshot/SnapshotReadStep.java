package io.tidemark.coprocessor.snapshot;

import io.tidemark.coprocessor.RegionStep;
import io.tidemark.coprocessor.TransactionalRegion;
import io.tidemark.coprocessor.horizon.HorizonCheck;
import io.tidemark.encoding.SnapshotAttribute;
import io.tidemark.visibility.DecidedWriters;
import io.tidemark.visibility.ReaderContext;
import io.tidemark.visibility.SnapshotQuery;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.OperationWithAttributes;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.util.Bytes;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Server-side snapshot reads (docs/coprocessors.md). A Get or Scan carrying the {@value SnapshotAttribute#NAME}
 * attribute is answered as of that transaction's snapshot: the region server reads every stored version, decides
 * visibility (asking the table's bound commit table, and invalidating pending writers as the cluster's commit mode
 * says, when a version has no shadow cell), runs the user's filter over the visible cells only, and sends back just
 * those cells. What the attribute claims (commit table, commit mode, epoch, start) is checked first
 * ({@link io.tidemark.coprocessor.binding.RequestClaims}). Operations without the attribute are left alone, so plain
 * HBase clients keep working on the same table.
 */
public final class SnapshotReadStep implements RegionStep {

    /**
     * The user's filter and versions per column, between {@link #preScannerOpen} (which takes them off the scan, so
     * the stored-versions read is unfiltered and reads the versions the read rule needs) and {@link #postScannerOpen}
     * (which applies them to visible cells). HBase calls both hooks on the same handler thread, one right after the
     * other.
     */
    private static final ThreadLocal<UserScan> USER_SCAN = new ThreadLocal<>();

    private final TransactionalRegion region;

    public SnapshotReadStep(TransactionalRegion region) {
        this.region = region;
    }

    @Override
    public void preScannerOpen(Scan scan) throws IOException {
        USER_SCAN.remove();
        SnapshotAttribute snapshot = snapshotOf(scan);
        if (snapshot == null) {
            return;
        }
        ReaderContext reader = region.claims().readerOf(snapshot);
        USER_SCAN.set(new UserScan(scan.getFilter(), scan.getMaxVersions(), reader));
        SnapshotScans.toStoredVersionsScan(scan, reader.readsUpTo());
    }

    @Override
    public RegionScanner postScannerOpen(Scan scan, RegionScanner scanner) throws IOException {
        if (scan.getAttribute(SnapshotAttribute.NAME) == null) {
            return scanner;
        }
        UserScan user = USER_SCAN.get();
        USER_SCAN.remove();
        if (user == null) {
            throw new DoNotRetryIOException("a transactional scan reached postScannerOpen without preScannerOpen:"
                    + " its filter and versions are unknown");
        }
        return new SnapshotRegionScanner(scanner, query(user.reader), user.maxVersions,
                new VisibleCellFilter(user.filter), horizon(user.reader));
    }

    @Override
    public boolean preGet(Get get, List<Cell> result) throws IOException {
        SnapshotAttribute snapshot = snapshotOf(get);
        if (snapshot == null) {
            return false;
        }
        ReaderContext reader = region.claims().readerOf(snapshot);
        Scan stored = new Scan(get);
        SnapshotScans.toStoredVersionsScan(stored, reader.readsUpTo());
        HorizonCheck horizon = horizon(reader);
        List<Cell> cells = new ArrayList<>();
        try (RegionScanner scanner = region.region().getScanner(stored)) {
            scanner.next(cells);
            List<Cell> visible = query(reader).visibleCells(cells, get.getMaxVersions());
            horizon.afterRead();
            result.addAll(new VisibleCellFilter(get.getFilter()).apply(visible));
        } catch (RuntimeException e) {
            throw new DoNotRetryIOException("could not resolve the snapshot of row "
                    + Bytes.toStringBinary(get.getRow()) + ": " + e, e);
        }
        return true;
    }

    /**
     * The read rule for one request: outcomes are remembered for the request, as a client remembers them; the writers
     * it invalidates and the shadow cells it heals are counted in the region's metrics.
     */
    private SnapshotQuery query(ReaderContext reader) {
        return new SnapshotQuery(reader, region.commitTable(), region.store(), new DecidedWriters(),
                region.metrics());
    }

    /** The check of the request's snapshot against the region's GC horizon, run after each row is read. */
    private HorizonCheck horizon(ReaderContext reader) {
        if (!region.binding().collectsGarbage()) {
            return HorizonCheck.NONE;
        }
        return () -> region.horizon().check(reader.startTimestamp(), region.commitTable());
    }

    private static @Nullable SnapshotAttribute snapshotOf(OperationWithAttributes operation) throws IOException {
        byte[] value = operation.getAttribute(SnapshotAttribute.NAME);
        if (value == null) {
            return null;
        }
        try {
            return SnapshotAttribute.decode(value);
        } catch (RuntimeException e) {
            throw new DoNotRetryIOException("bad " + SnapshotAttribute.NAME + " attribute: " + e.getMessage(), e);
        }
    }

    /** What {@link #preScannerOpen} takes off a transactional scan, for {@link #postScannerOpen}. */
    private static final class UserScan {
        private final Filter filter;
        private final int maxVersions;
        private final ReaderContext reader;

        UserScan(Filter filter, int maxVersions, ReaderContext reader) {
            this.filter = filter;
            this.maxVersions = maxVersions;
            this.reader = reader;
        }
    }
}
