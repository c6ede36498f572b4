package io.tidemark.coprocessor.snapshot;

import io.tidemark.committable.CommitTable;
import io.tidemark.committable.CommitTableSchema;
import io.tidemark.committable.HBaseCommitTable;
import io.tidemark.coprocessor.WriterOutcomes;
import io.tidemark.encoding.SnapshotAttribute;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CoprocessorEnvironment;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.OperationWithAttributes;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.coprocessor.ObserverContext;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessor;
import org.apache.hadoop.hbase.coprocessor.RegionCoprocessorEnvironment;
import org.apache.hadoop.hbase.coprocessor.RegionObserver;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.regionserver.Region;
import org.apache.hadoop.hbase.regionserver.RegionScanner;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Server-side snapshot reads (docs/coprocessors.md). A Get or Scan carrying the {@value SnapshotAttribute#NAME}
 * attribute is answered as of that transaction's snapshot: the region server reads every stored version, decides
 * visibility (asking the commit table, and invalidating pending writers in low-latency mode, when a version has no
 * shadow cell), runs the user's filter over the visible cells only, and sends back just those cells. Operations
 * without the attribute are left alone, so plain HBase clients keep working on the same table.
 */
public final class SnapshotObserver implements RegionCoprocessor, RegionObserver {

    /**
     * The user's filter, between {@link #preScannerOpen} (which takes it off the scan, so the stored-versions read
     * is unfiltered) and {@link #postScannerOpen} (which applies it to visible cells). HBase calls both hooks on
     * the same handler thread, one right after the other.
     */
    private static final ThreadLocal<Filter> USER_FILTER = new ThreadLocal<>();

    private RegionCoprocessorEnvironment environment;

    @Override
    public void start(CoprocessorEnvironment env) throws IOException {
        if (!(env instanceof RegionCoprocessorEnvironment)) {
            throw new DoNotRetryIOException(getClass().getName() + " is a region coprocessor: attach it to a table,"
                    + " not to the master or a region server as a whole");
        }
        environment = (RegionCoprocessorEnvironment) env;
    }

    @Override
    public Optional<RegionObserver> getRegionObserver() {
        return Optional.of(this);
    }

    @Override
    public void preScannerOpen(ObserverContext<RegionCoprocessorEnvironment> c, Scan scan) throws IOException {
        SnapshotAttribute snapshot = snapshotOf(scan);
        USER_FILTER.remove();
        if (snapshot == null) {
            return;
        }
        USER_FILTER.set(scan.getFilter());
        SnapshotScans.toStoredVersionsScan(scan, snapshot.startTimestamp());
    }

    @Override
    public RegionScanner postScannerOpen(ObserverContext<RegionCoprocessorEnvironment> c, Scan scan,
            RegionScanner s) throws IOException {
        SnapshotAttribute snapshot = snapshotOf(scan);
        if (snapshot == null) {
            return s;
        }
        Filter userFilter = USER_FILTER.get();
        USER_FILTER.remove();
        return new SnapshotRegionScanner(s, resolver(snapshot), new VisibleCellFilter(userFilter));
    }

    @Override
    public void preGetOp(ObserverContext<RegionCoprocessorEnvironment> c, Get get, List<Cell> result)
            throws IOException {
        SnapshotAttribute snapshot = snapshotOf(get);
        if (snapshot == null) {
            return;
        }
        Scan stored = new Scan(get);
        SnapshotScans.toStoredVersionsScan(stored, snapshot.startTimestamp());
        Region region = environment.getRegion();
        List<Cell> cells = new ArrayList<>();
        try (RegionScanner scanner = region.getScanner(stored)) {
            scanner.next(cells);
            result.addAll(new VisibleCellFilter(get.getFilter()).apply(resolver(snapshot).visibleCells(cells)));
        } catch (RuntimeException e) {
            // A runtime exception escaping a hook would make HBase abort the region server (or drop the observer).
            throw new DoNotRetryIOException("could not resolve the snapshot of row "
                    + Bytes.toStringBinary(get.getRow()) + ": " + e, e);
        }
        c.bypass();
    }

    private SnapshotResolver resolver(SnapshotAttribute snapshot) {
        CommitTable commitTable = new HBaseCommitTable(environment.getConnection(),
                TableName.valueOf(snapshot.commitTable()), new CommitTableSchema(snapshot.commitTableBuckets()));
        return new SnapshotResolver(environment.getRegion(), snapshot.startTimestamp(), snapshot.commitMode(),
                new WriterOutcomes(environment.getRegion(), commitTable, true));
    }

    private static SnapshotAttribute snapshotOf(OperationWithAttributes operation) throws IOException {
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
}
