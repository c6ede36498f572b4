package io.tidemark.coprocessor.snapshot;

import io.tidemark.committable.CommitTable;
import io.tidemark.committable.CommitTableSchema;
import io.tidemark.committable.HBaseCommitTable;
import io.tidemark.coprocessor.RegionEnvironments;
import io.tidemark.coprocessor.RegionVersionStore;
import io.tidemark.coprocessor.horizon.GcHorizon;
import io.tidemark.coprocessor.horizon.HorizonCheck;
import io.tidemark.encoding.SnapshotAttribute;
import io.tidemark.table.TransactionalTableLayout;
import io.tidemark.visibility.DecidedWriters;
import io.tidemark.visibility.ReaderContext;
import io.tidemark.visibility.SnapshotQuery;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CoprocessorEnvironment;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.OperationWithAttributes;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.TableDescriptor;
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
     * The user's filter and versions per column, between {@link #preScannerOpen} (which takes them off the scan, so
     * the stored-versions read is unfiltered and reads the versions the read rule needs) and {@link #postScannerOpen}
     * (which applies them to visible cells). HBase calls both hooks on the same handler thread, one right after the
     * other.
     */
    private static final ThreadLocal<UserScan> USER_SCAN = new ThreadLocal<>();

    private RegionCoprocessorEnvironment environment;
    /** Whether compaction collects garbage in this table, so reads must be checked against the GC horizon. */
    private boolean collectedByCompaction;
    /** Whether this observer sees the horizon the compaction observer raises (one class loader for both). */
    private boolean horizonShared;
    /** The commit table the last transactional read named ({@link #commitTable}); handler threads share it. */
    private volatile HBaseCommitTable lastNamed;

    @Override
    public void start(CoprocessorEnvironment env) throws IOException {
        environment = RegionEnvironments.of(env, SnapshotObserver.class);
        TableDescriptor table = environment.getRegion().getTableDescriptor();
        collectedByCompaction = GcHorizon.appliesTo(table);
        horizonShared = GcHorizon.sharedBy(table);
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
    public void preScannerOpen(ObserverContext<RegionCoprocessorEnvironment> c, Scan scan) throws IOException {
        SnapshotAttribute snapshot = snapshotOf(scan);
        USER_SCAN.remove();
        if (snapshot == null) {
            return;
        }
        USER_SCAN.set(new UserScan(scan.getFilter(), scan.getMaxVersions()));
        SnapshotScans.toStoredVersionsScan(scan, readerOf(snapshot).readsUpTo());
    }

    @Override
    public RegionScanner postScannerOpen(ObserverContext<RegionCoprocessorEnvironment> c, Scan scan,
            RegionScanner s) throws IOException {
        SnapshotAttribute snapshot = snapshotOf(scan);
        if (snapshot == null) {
            return s;
        }
        UserScan user = USER_SCAN.get();
        USER_SCAN.remove();
        if (user == null) {
            throw new DoNotRetryIOException("a transactional scan reached postScannerOpen without preScannerOpen:"
                    + " its filter and versions are unknown");
        }
        CommitTable commitTable = commitTable(snapshot);
        return new SnapshotRegionScanner(s, query(snapshot, commitTable), user.maxVersions,
                new VisibleCellFilter(user.filter), horizon(snapshot, commitTable));
    }

    @Override
    public void preGetOp(ObserverContext<RegionCoprocessorEnvironment> c, Get get, List<Cell> result)
            throws IOException {
        SnapshotAttribute snapshot = snapshotOf(get);
        if (snapshot == null) {
            return;
        }
        Scan stored = new Scan(get);
        SnapshotScans.toStoredVersionsScan(stored, readerOf(snapshot).readsUpTo());
        Region region = environment.getRegion();
        CommitTable commitTable = commitTable(snapshot);
        HorizonCheck horizon = horizon(snapshot, commitTable);
        List<Cell> cells = new ArrayList<>();
        try (RegionScanner scanner = region.getScanner(stored)) {
            scanner.next(cells);
            List<Cell> visible = query(snapshot, commitTable).visibleCells(cells, get.getMaxVersions());
            horizon.afterRead();
            result.addAll(new VisibleCellFilter(get.getFilter()).apply(visible));
        } catch (RuntimeException e) {
            // A runtime exception escaping a hook would make HBase abort the region server (or drop the observer).
            throw new DoNotRetryIOException("could not resolve the snapshot of row "
                    + Bytes.toStringBinary(get.getRow()) + ": " + e, e);
        }
        c.bypass();
    }

    /**
     * The commit table the reader names: the one its client would consult. Readers of a table name the same one, so
     * the last one named is kept: its layout row is then read once, not at every invalidation.
     */
    private CommitTable commitTable(SnapshotAttribute snapshot) {
        HBaseCommitTable last = lastNamed;
        if (last != null && last.schema().buckets() == snapshot.commitTableBuckets()
                && last.tableName().getNameAsString().equals(snapshot.commitTable())) {
            return last;
        }
        HBaseCommitTable named = new HBaseCommitTable(environment.getConnection(),
                TableName.valueOf(snapshot.commitTable()), new CommitTableSchema(snapshot.commitTableBuckets()));
        lastNamed = named;
        return named;
    }

    /** The read rule for one request: outcomes are remembered for the request, as a client remembers them. */
    private SnapshotQuery query(SnapshotAttribute snapshot, CommitTable commitTable) {
        return new SnapshotQuery(readerOf(snapshot), commitTable, new RegionVersionStore(environment.getRegion()), new DecidedWriters());
    }

    /** The reader the attribute names: its snapshot, TSO incarnation and the own writes it sees. */
    private static ReaderContext readerOf(SnapshotAttribute snapshot) {
        return new ReaderContext(snapshot.startTimestamp(), snapshot.commitMode(), snapshot.epoch(),
                snapshot.ownVersionsUpTo(), snapshot.everyOwnVersion());
    }

    /** The check of the request's snapshot against the region's GC horizon, run after each row is read. */
    private HorizonCheck horizon(SnapshotAttribute snapshot, CommitTable commitTable) throws IOException {
        if (!collectedByCompaction) {
            return HorizonCheck.NONE;
        }
        Region region = environment.getRegion();
        if (!horizonShared) {
            throw new DoNotRetryIOException("table " + region.getTableDescriptor().getTableName()
                    + " loads " + TransactionalTableLayout.SNAPSHOT_OBSERVER + " and "
                    + TransactionalTableLayout.COMPACTION_OBSERVER + " from different jars, so snapshot reads cannot"
                    + " see what compaction collected and could return wrong data; attach both from the same jar"
                    + " (TidemarkAdmin.enable does) or put the jar on the region servers' classpath");
        }
        GcHorizon gcHorizon = GcHorizon.of(region);
        return () -> gcHorizon.check(snapshot.startTimestamp(), commitTable);
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

    /** What {@link #preScannerOpen} takes off a transactional scan, for {@link #postScannerOpen}. */
    private static final class UserScan {
        private final Filter filter;
        private final int maxVersions;

        UserScan(Filter filter, int maxVersions) {
            this.filter = filter;
            this.maxVersions = maxVersions;
        }
    }
}
