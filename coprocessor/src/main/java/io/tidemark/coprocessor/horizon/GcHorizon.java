package io.tidemark.coprocessor.horizon;

import io.tidemark.committable.CommitTable;
import io.tidemark.gc.SnapshotTooOldException;

import java.io.IOException;

/**
 * The garbage-collection horizon of one open region: no snapshot at or below it may read the region any more, since
 * compaction may have dropped versions such a snapshot needs. It is the larger of
 * <ul>
 *   <li>the highest low watermark a compaction of this region collected with, raised before the compaction writes
 *       anything (so before its files can become visible), and</li>
 *   <li>the low watermark persisted in the table's bound commit table, read once, at the first check after the
 *       region opened. It is at least every watermark an earlier incarnation of the region (on this or another
 *       server) collected with, since the persisted watermark only grows. Reading it lazily keeps region open free of
 *       commit-table reads.</li>
 * </ul>
 * The region's one {@code TransactionalRegion} owns it: a reopened region is a new instance with a new horizon.
 */
public final class GcHorizon {

    private static final long UNKNOWN = -1;

    private final String regionName;
    private volatile long collected;
    private volatile long persistedAfterOpen = UNKNOWN;

    /** @param regionName for the refusal's message */
    public GcHorizon(String regionName) {
        this.regionName = regionName;
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
     * @param commitTable the table's bound commit table, where the persisted low watermark is read at the first check
     *     of this incarnation
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
