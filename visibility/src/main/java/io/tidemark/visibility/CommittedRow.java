package io.tidemark.visibility;

import io.tidemark.committable.CommitTable;
import io.tidemark.fastpath.FastPathConflictException;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The latest committed state of one row, as the fast path needs it (docs/fast-path.md, "Reading a row"): for each
 * column its newest committed write (a value or a deletion), the row version (the largest commit timestamp among
 * the row's committed writes) and the writers nobody decided yet.
 *
 * <p>Within one column, versions are walked newest first and the first committed one decides; versions below it
 * cannot matter (first-committer-wins orders writes of one column by version, and the fast-path checks keep that
 * true across both paths). A pending writer is reported if its version is newer than the row's newest fast-path
 * version; an older one can never commit, because the fast-path write above it would have aborted on it. Pending
 * writers are asked again on every read, never remembered: a row read twice must show one state, not a mix. A
 * write aborts on a pending writer; a plain read skips it, after settling every one that could still commit below
 * the version it reports ({@link #readSettled}).
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
     * The row for an operation that does not hold the row's lock and aborts on pending writers (a read for update):
     * pending writers are reported, never decided. Reads the newest {@link #WINDOW} versions of every column first;
     * only when they cannot decide (a column whose fetched versions all lie above the row's newest fast-path version
     * and decide nothing) is the whole row read. A counter updated only through the fast path is thus read in
     * constant time, however long its history. Like every read without the lock, the row is read again whenever a
     * writer is found committed that was not known to be before the row was read ({@link #readUnlocked}).
     */
    public static CommittedRow read(VersionStore store, CommitTable commitTable, byte[] row) throws IOException {
        return readUnlocked(store, commitTable, row, false);
    }

    /** The first read of every row read: the newest {@link #WINDOW} versions of every column of the row. */
    public static Get windowRead(byte[] row) throws IOException {
        return new Get(row).readVersions(WINDOW);
    }

    /**
     * Like {@link #read}, from {@code window}, what {@link #windowRead} returned, for a caller that holds the row's
     * exclusive lock from before that read until it has acted on the answer (a fast-path write, which needs other
     * cells of the same read: the operation records). The lock keeps every transactional write of the row out, so a
     * writer found committed had finished writing the row before the window was read, and the window is resolved as
     * it is.
     */
    public static CommittedRow readLocked(VersionStore store, CommitTable commitTable, byte[] row, Result window)
            throws IOException {
        WriterResolver writers = WriterResolver.forFastPath(commitTable, store, PendingWriterPolicy.REPORT,
                new DecidedWriters());
        return resolve(writers, new StoredRow(store, row, window));
    }

    /**
     * The row for an operation that skips pending writers rather than abort on them (a plain fast-path read): like
     * {@link #read}, except that no pending writer is left that started at or below the returned {@link #version()}.
     * Such a writer may hold a commit timestamp below that version without having written its record yet (the same
     * writer may even be found committed in another column of the row, its record written meanwhile), and skipping
     * it would answer a state that no snapshot sees once it commits. So it is invalidated, as a low-latency reader
     * invalidates, unless its record wins the race, and the row is resolved again; deciding a writer can raise the
     * version, so this repeats until none is left, each round deciding at least one more writer of the row. A pending
     * writer that started above the version can only commit above it, and is skipped.
     */
    public static CommittedRow readSettled(VersionStore store, CommitTable commitTable, byte[] row)
            throws IOException {
        return readUnlocked(store, commitTable, row, true);
    }

    /**
     * Reads and resolves the row without its lock until one read shows a state some committed transaction produced
     * (docs/fast-path.md, "Reading a row"). A writer whose cells carried no shadow cell when the row was read, and
     * that the lookups that followed found committed, may still have been writing the row when it was read: the
     * read may hold an overwritten value of it, or only some of its columns. Cells of a writer known committed
     * before the read started are complete, since a transaction writes all its cells before its commit is decided.
     * So the row is read again whenever a round learnt a new committed writer: each such round learns at least one
     * more, the next read knows them all in advance. {@code settle} also invalidates the pending writers that could
     * commit below the answer ({@link #readSettled}).
     */
    private static CommittedRow readUnlocked(VersionStore store, CommitTable commitTable, byte[] row, boolean settle)
            throws IOException {
        DecidedWriters decided = new DecidedWriters();
        PendingWriterPolicy pendingWriters = PendingWriterPolicy.REPORT;
        while (true) {
            int committedBeforeRead = decided.committedCount();
            StoredRow stored = new StoredRow(store, row, store.get(windowRead(row)));
            CommittedRow state = resolve(WriterResolver.forFastPath(commitTable, store, pendingWriters, decided),
                    stored);
            if (decided.committedCount() > committedBeforeRead) {
                continue;
            }
            if (!settle || !state.hasPendingWriterUpTo(state.version)) {
                return state;
            }
            pendingWriters = PendingWriterPolicy.upTo(state.version);
        }
    }

    /** Resolves the window, or, when it cannot decide the row, the whole row. */
    private static CommittedRow resolve(WriterResolver writers, StoredRow stored) throws IOException {
        CommittedRow fromWindow = resolve(writers, stored.window, WINDOW);
        if (fromWindow != null) {
            return fromWindow;
        }
        // Every stored version of every column is complete down to the first: they always decide the row.
        return Objects.requireNonNull(resolve(writers, stored.allVersions(), Integer.MAX_VALUE), "row undecided");
    }

    /** The committed row from the fetched versions, or null when they are not enough to decide it. */
    private static @Nullable CommittedRow resolve(WriterResolver writers, Result stored, int versionsPerQualifier)
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

    private boolean hasPendingWriterUpTo(long timestamp) {
        for (long writer : pendingWriters) {
            if (writer <= timestamp) {
                return true;
            }
        }
        return false;
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
    public @Nullable Cell value(byte[] family, byte[] qualifier) {
        return values.get(new ColumnKey(family, qualifier));
    }

    /** The latest committed values (not sorted). */
    public List<Cell> values() {
        return new ArrayList<>(values.values());
    }

    /** The row's stored versions: the window, and all of them, read once and only when the window cannot decide. */
    private static final class StoredRow {
        private final VersionStore store;
        private final byte[] row;
        private final Result window;
        private @Nullable Result allVersions;

        StoredRow(VersionStore store, byte[] row, Result window) {
            this.store = store;
            this.row = row;
            this.window = window;
        }

        Result allVersions() throws IOException {
            if (allVersions == null) {
                allVersions = store.get(new Get(row).readAllVersions());
            }
            return allVersions;
        }
    }
}
