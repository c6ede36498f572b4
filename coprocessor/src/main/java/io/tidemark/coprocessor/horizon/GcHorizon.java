package io.tidemark.coprocessor.horizon;

import io.tidemark.committable.CommitTable;
import io.tidemark.gc.SnapshotTooOldException;
import io.tidemark.table.TransactionalTableLayout;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.regionserver.Region;

import java.io.IOException;
import java.lang.ref.WeakReference;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The garbage-collection horizon of one open region: no snapshot at or below it may read the region any more, since
 * compaction may have dropped versions such a snapshot needs. It is the larger of
 * <ul>
 *   <li>the highest low watermark a compaction of this region collected with, raised before the compaction writes
 *       anything (so before its files can become visible), and</li>
 *   <li>the low watermark persisted in the commit table, read once, at the first check after the region opened. It
 *       is at least every watermark an earlier incarnation of the region (on this or another server) collected
 *       with, since the persisted watermark only grows. Reading it lazily keeps region open free of commit-table
 *       reads.</li>
 * </ul>
 *
 * <p>The compaction observer and the snapshot observer find the same instance through a static registry keyed by
 * region, so both must be loaded by one class loader: from the region servers' classpath, or from the same jar path
 * ({@link #sharedBy}). A reopened region is a new {@link Region} object and gets a new horizon.
 */
public final class GcHorizon {

    private static final ConcurrentMap<String, GcHorizon> REGIONS = new ConcurrentHashMap<>();

    private static final long UNKNOWN = -1;

    private final WeakReference<Region> region;
    private final String regionName;
    private volatile long collected;
    private volatile long persistedAfterOpen = UNKNOWN;

    private GcHorizon(Region region) {
        this.region = new WeakReference<>(region);
        this.regionName = region.getRegionInfo().getRegionNameAsString();
    }

    /** The horizon of {@code region}'s current incarnation. */
    public static GcHorizon of(Region region) {
        return REGIONS.compute(region.getRegionInfo().getEncodedName(),
                (name, known) -> known != null && known.region.get() == region ? known : new GcHorizon(region));
    }

    /** Drops the horizon of {@code region} when it closes; a later incarnation starts from the persisted one. */
    public static void forget(Region region) {
        REGIONS.computeIfPresent(region.getRegionInfo().getEncodedName(),
                (name, known) -> known.region.get() == region ? null : known);
    }

    /**
     * Whether the table's reads need the check: its compaction observer collects garbage in at least one family
     * marked transactional.
     */
    public static boolean appliesTo(TableDescriptor table) {
        if (!table.hasCoprocessor(TransactionalTableLayout.COMPACTION_OBSERVER)) {
            return false;
        }
        for (ColumnFamilyDescriptor family : table.getColumnFamilies()) {
            if (TransactionalTableLayout.isTransactionalFamilyValue(family.getValue(
                    TransactionalTableLayout.TRANSACTIONAL_FAMILY_KEY))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether the snapshot observer and the compaction observer of the table share this registry: both come from
     * the region server's classpath, or from the same jar.
     */
    public static boolean sharedBy(TableDescriptor table) {
        return table.getCoprocessorDescriptors().stream()
                .filter(cp -> cp.getClassName().equals(TransactionalTableLayout.SNAPSHOT_OBSERVER)
                        || cp.getClassName().equals(TransactionalTableLayout.COMPACTION_OBSERVER))
                .map(cp -> cp.getJarPath().orElse(""))
                .distinct()
                .count() <= 1;
    }

    /** A compaction is about to collect with {@code lowWatermark}. */
    public synchronized void raise(long lowWatermark) {
        if (lowWatermark > collected) {
            collected = lowWatermark;
        }
    }

    /**
     * Refuses a read at {@code snapshot} at or below the horizon. Call it after reading: a compaction whose files the
     * read saw raised the horizon before they became visible.
     *
     * @param commitTable where the persisted low watermark is read, at the first check of this incarnation
     */
    public void check(long snapshot, CommitTable commitTable) throws IOException {
        long horizon = collected;
        if (snapshot > horizon) {
            horizon = Math.max(horizon, persistedAfterOpen(commitTable));
        }
        if (snapshot <= horizon) {
            throw SnapshotTooOldException.refused(snapshot, horizon, regionName);
        }
    }

    private long persistedAfterOpen(CommitTable commitTable) throws IOException {
        long persisted = persistedAfterOpen;
        if (persisted == UNKNOWN) {
            persisted = commitTable.readLowWatermark();
            persistedAfterOpen = persisted;
        }
        return persisted;
    }
}
