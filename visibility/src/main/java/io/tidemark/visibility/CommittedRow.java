package io.tidemark.visibility;

import io.tidemark.committable.CommitTable;
import io.tidemark.fastpath.FastPathConflictException;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The latest committed state of one row, as the fast path needs it (docs/fast-path.md, "Reading a row"): for each
 * column its newest committed write (a value or a deletion), the row version (the largest commit timestamp among
 * the row's committed writes) and the writers nobody decided yet.
 *
 * <p>Within one column, versions are walked newest first and the first committed one decides; versions below it
 * cannot matter (first-committer-wins orders writes of one column by version, and the fast-path checks keep that
 * true across both paths). A pending writer is reported if its version is newer than the row's newest fast-path
 * version; an older one can never commit, because the fast-path write above it would have aborted on it. Pending
 * writers are asked again on every read, never remembered: a row read twice must show one state, not a mix.
 */
public final class CommittedRow {

    /** Versions of each qualifier read first; enough for rows mostly written by the fast path. */
    public static final int WINDOW = 8;

    private final long version;
    private final Map<ColumnKey, Cell> values;
    private final List<Long> pendingWriters;

    private CommittedRow(long version, Map<ColumnKey, Cell> values, List<Long> pendingWriters) {
        this.version = version;
        this.values = values;
        this.pendingWriters = pendingWriters;
    }

    /**
     * Reads the newest {@link #WINDOW} versions of every column first; only when they cannot decide (a column whose
     * fetched versions all lie above the row's newest fast-path version and decide nothing) is the whole row read.
     * A counter updated only through the fast path is thus read in constant time, however long its history.
     */
    public static CommittedRow read(VersionStore store, CommitTable commitTable, byte[] row) throws IOException {
        return read(store, commitTable, row, store.get(windowRead(row)));
    }

    /** The first read of {@link #read}: the newest {@link #WINDOW} versions of every column of the row. */
    public static Get windowRead(byte[] row) throws IOException {
        return new Get(row).readVersions(WINDOW);
    }

    /**
     * Like {@link #read}, from {@code window}, what {@link #windowRead} returned: for a caller that needs other cells
     * of the same read (the fast path's operation records).
     */
    public static CommittedRow read(VersionStore store, CommitTable commitTable, byte[] row, Result window)
            throws IOException {
        WriterResolver writers = WriterResolver.forFastPath(commitTable, store);
        CommittedRow fromWindow = resolve(writers, window, WINDOW);
        if (fromWindow != null) {
            return fromWindow;
        }
        return resolve(writers, store.get(new Get(row).readAllVersions()), Integer.MAX_VALUE);
    }

    /** The committed row from the fetched versions, or null when they are not enough to decide it. */
    private static CommittedRow resolve(WriterResolver writers, Result stored, int versionsPerQualifier)
            throws IOException {
        List<ColumnVersions> columns = stored.isEmpty() ? List.of()
                : ColumnVersions.partition(Arrays.asList(stored.rawCells()));
        long newestFastPath = Timestamps.NONE;
        for (ColumnVersions column : columns) {
            newestFastPath = Math.max(newestFastPath, column.newestFastPathVersion());
        }
        for (ColumnVersions column : columns) {
            // Unfetched versions above the newest fast-path version could be pending writers.
            if (column.completeDownTo(versionsPerQualifier) > newestFastPath) {
                return null;
            }
        }
        long rowVersion = newestFastPath;
        Map<ColumnKey, Cell> values = new HashMap<>();
        List<Long> pending = new ArrayList<>();
        for (ColumnVersions column : columns) {
            long completeDownTo = column.completeDownTo(versionsPerQualifier);
            boolean decided = false;
            for (long v : column.writtenVersions()) {
                if (v < completeDownTo) {
                    break;
                }
                WriterOutcome writer = writers.outcome(column, v);
                if (writer.isPending()) {
                    if (v > newestFastPath) {
                        pending.add(Timestamps.writerOf(v));
                    }
                    continue;
                }
                if (!writer.isCommitted()) {
                    continue;
                }
                rowVersion = Math.max(rowVersion, writer.commitTimestamp());
                if (column.decidesAt(v)) {
                    Cell data = column.dataAt(v);
                    if (data != null && !column.isDeletionAt(v)) {
                        values.put(column.key(), data);
                    }
                    decided = true;
                    break;
                }
            }
            if (!decided && completeDownTo > 0) {
                return null;
            }
        }
        return new CommittedRow(rowVersion, values, pending);
    }

    /** The largest commit timestamp of a committed write to the row, or 0 when it has none. */
    public long version() {
        return version;
    }

    /** Aborts a fast-path write (or read-for-update) when a generic transaction's write to the row is pending. */
    public void requireNoPendingWriter(byte[] row, String operation) throws FastPathConflictException {
        if (!pendingWriters.isEmpty()) {
            throw new FastPathConflictException("fast-path " + operation + " of row " + Bytes.toStringBinary(row)
                    + " aborted: transaction " + pendingWriters.get(0) + " wrote the row and has neither committed nor"
                    + " aborted yet; retry (a generic transaction would resolve it)");
        }
    }

    /** The latest committed value of the column, or null when it has none or it was deleted. */
    public Cell value(byte[] family, byte[] qualifier) {
        return values.get(new ColumnKey(family, qualifier));
    }

    /** The latest committed values (not sorted). */
    public List<Cell> values() {
        return new ArrayList<>(values.values());
    }
}
