package io.tidemark.visibility;

import io.tidemark.committable.CommitTable;
import io.tidemark.encoding.CellEncoding;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a snapshot sees in a row (docs/architecture.md, "Reading a snapshot"). The row is read as stored versions:
 * the requested columns with their tombstones and shadow cells ({@link #storedColumns}), versions up to the start
 * timestamp (or the reader's newest checkpoint version, {@link ReaderContext#readsUpTo}), the newest
 * {@value #VERSIONS_PER_READ} of each qualifier. For each user column the versions are walked newest first, and the
 * first visible one decides: a deletion hides the column, otherwise its data cell is the value. A version is visible
 * when the reader wrote it itself no later than {@link ReaderContext#ownVersionsUpTo} (checkpoints), or its writer
 * committed before the reader's start. The reader's own versions it does not see are passed over, never resolved.
 * Older versions are fetched only when the fetched ones are all invisible.
 *
 * <p>A reader that {@linkplain ReaderContext#seesEveryOwnVersion() sees every own version} gets, per column, up to
 * the request's maximum versions: walking the same order, each visible own version's data cell (one per checkpoint
 * that wrote the column), until the first visible version that is not its own, whose data cell (the snapshot's value)
 * is the last one returned. A visible deletion ends the list without adding anything: what it deletes (older own
 * versions and the snapshot's value) is hidden, as an HBase delete hides older versions. With a maximum of one this
 * is the ordinary rule.
 */
public final class SnapshotQuery {

    /** Versions read per qualifier at first: usually the newest is visible, and reading all would cost every row. */
    public static final int VERSIONS_PER_READ = 4;

    private final ReaderContext reader;
    private final VersionStore store;
    private final WriterResolver writers;

    /**
     * @param decided the reader's remembered outcomes: a transaction's own for the client, one request's in a
     *     region server
     */
    public SnapshotQuery(ReaderContext reader, CommitTable commitTable, VersionStore store, DecidedWriters decided) {
        this(reader, commitTable, store, decided, ReaderEffects.NONE);
    }

    /** @param effects told about each pending writer the query invalidates and each shadow cell it heals */
    public SnapshotQuery(ReaderContext reader, CommitTable commitTable, VersionStore store, DecidedWriters decided,
                         ReaderEffects effects) {
        this.reader = reader;
        this.store = store;
        this.writers = WriterResolver.forReader(reader, commitTable, store, decided, effects);
    }

    /**
     * The columns to read for the user's request: each requested column plus its tombstone and shadow cell; a whole
     * family (null or empty set) stays whole.
     */
    public static Map<byte[], NavigableSet<byte[]>> storedColumns(Map<byte[], NavigableSet<byte[]>> requested) {
        Map<byte[], NavigableSet<byte[]>> stored = new TreeMap<>(Bytes.BYTES_COMPARATOR);
        for (Map.Entry<byte[], NavigableSet<byte[]>> family : requested.entrySet()) {
            if (family.getValue() == null || family.getValue().isEmpty()) {
                stored.put(family.getKey(), null);
                continue;
            }
            NavigableSet<byte[]> qualifiers = new TreeSet<>(Bytes.BYTES_COMPARATOR);
            for (byte[] q : family.getValue()) {
                qualifiers.addAll(CellEncoding.storedQualifiers(q));
            }
            stored.put(family.getKey(), qualifiers);
        }
        return stored;
    }

    /**
     * Turns {@code scan} into the read of the stored versions a snapshot needs: its columns with their tombstones and
     * shadow cells ({@link #storedColumns}), versions up to {@code readsUpTo} ({@link ReaderContext#readsUpTo}), the
     * newest {@value #VERSIONS_PER_READ} of each. The one definition of that read, for the client's scans and the
     * region server's.
     */
    public static void readStoredVersions(Scan scan, long readsUpTo) throws IOException {
        scan.setFamilyMap(storedColumns(scan.getFamilyMap()));
        scan.setTimeRange(0, readsUpTo + 1);
        scan.readVersions(VERSIONS_PER_READ);
    }

    /** The read of the stored versions a snapshot needs of {@code requested}'s row, as {@link #readStoredVersions}. */
    public static Get storedVersionsGet(Get requested, long readsUpTo) throws IOException {
        Get stored = new Get(requested.getRow());
        for (Map.Entry<byte[], NavigableSet<byte[]>> f : storedColumns(requested.getFamilyMap()).entrySet()) {
            if (f.getValue() == null) {
                stored.addFamily(f.getKey());
            } else {
                for (byte[] q : f.getValue()) {
                    stored.addColumn(f.getKey(), q);
                }
            }
        }
        stored.setTimeRange(0, readsUpTo + 1);
        stored.readVersions(VERSIONS_PER_READ);
        return stored;
    }

    /** The visible data cells of one row's stored versions, sorted; never a tombstone or shadow cell. */
    public List<Cell> visibleCells(List<Cell> storedRow) throws IOException {
        return visibleCells(storedRow, 1);
    }

    /**
     * The visible data cells of one row's stored versions, at most {@code maxVersions} per column, sorted (a column's
     * versions newest first); never a tombstone or shadow cell. More than one version per column only for a reader
     * that sees every own version; any other reader gets the newest visible one.
     */
    public List<Cell> visibleCells(List<Cell> storedRow, int maxVersions) throws IOException {
        if (maxVersions < 1) {
            throw new IllegalArgumentException("max versions must be at least 1, was " + maxVersions);
        }
        int versionsPerColumn = reader.seesEveryOwnVersion() ? maxVersions : 1;
        List<Cell> visible = new ArrayList<>();
        for (ColumnVersions column : ColumnVersions.partition(storedRow)) {
            visible.addAll(visibleVersions(column, versionsPerColumn));
        }
        visible.sort(CellComparator.getInstance());
        return visible;
    }

    /**
     * The column's visible data cells, newest first: own versions, then the first visible version of another writer,
     * at most {@code limit}; a visible deletion ends them. Empty when the snapshot has no value for the column.
     */
    private List<Cell> visibleVersions(ColumnVersions fetched, int limit) throws IOException {
        List<Cell> cells = new ArrayList<>();
        ColumnVersions column = fetched;
        while (true) {
            long completeDownTo = column.completeDownTo(VERSIONS_PER_READ);
            for (long version : column.writtenVersions()) {
                if (version < completeDownTo) {
                    break;
                }
                if (!isVisible(column, version)) {
                    continue;
                }
                if (column.isDeletionAt(version)) {
                    return cells;
                }
                Cell data = column.dataAt(version);
                if (data == null) {
                    continue;
                }
                cells.add(data);
                // Only the reader's own versions are a history; another writer's visible version is the snapshot's.
                if (cells.size() == limit || !reader.isOwnVersion(version)) {
                    return cells;
                }
            }
            if (completeDownTo == 0) {
                return cells;
            }
            Result olderCells = store.get(olderVersions(column, completeDownTo));
            if (olderCells.isEmpty()) {
                return cells;
            }
            List<ColumnVersions> older = ColumnVersions.partition(Arrays.asList(olderCells.rawCells()));
            if (older.isEmpty()) {
                return cells;
            }
            // The Get names one column, so the partition holds only that column.
            column = older.get(0);
        }
    }

    private boolean isVisible(ColumnVersions column, long version) throws IOException {
        if (reader.isOwnVersion(version)) {
            return reader.seesAsOwnWrite(version);
        }
        return writers.outcome(column, version).isCommittedBefore(reader.startTimestamp());
    }

    /** The stored versions of one column older than {@code before}. */
    private static Get olderVersions(ColumnVersions column, long before) throws IOException {
        Get older = new Get(column.row());
        for (byte[] q : CellEncoding.storedQualifiers(column.qualifier())) {
            older.addColumn(column.family(), q);
        }
        return older.setTimeRange(0, before).readVersions(VERSIONS_PER_READ);
    }
}
