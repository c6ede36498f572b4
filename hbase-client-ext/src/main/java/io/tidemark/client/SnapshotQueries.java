package io.tidemark.client;

import io.tidemark.encoding.CellEncoding;
import io.tidemark.fastpath.FastPathProtocol;
import io.tidemark.encoding.SnapshotAttribute;
import io.tidemark.visibility.ReaderContext;
import io.tidemark.visibility.SnapshotQuery;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Query;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.io.TimeRange;

import java.io.IOException;
import java.util.Map;
import java.util.NavigableSet;

/**
 * Turns a user's Get or Scan into the HBase read of a snapshot: the requested columns plus their tombstones and
 * shadow cells, versions up to the newest the reader can see (its start, or its current checkpoint's version), a
 * few versions per column; or, when the table has the snapshot
 * coprocessor, into the same Get or Scan marked with the transaction. Refuses what cannot be answered correctly.
 */
final class SnapshotQueries {

    /** Rows per scan RPC when the snapshot is resolved server-side and the user set no caching. */
    static final int SERVER_SIDE_ROWS_PER_RPC = 1000;

    private static final String SERVER_SIDE_LATER = " is not supported in transactions yet: it would run on raw"
            + " versions, before the snapshot is resolved; do this on the returned Results";

    private static final String FILTER_NEEDS_COPROCESSOR = " needs the Tidemark snapshot coprocessor on the table:"
            + " without it the snapshot is resolved on the client, after HBase has already run the filter over raw"
            + " versions (tentative, aborted, overwritten and metadata cells), so it would return wrong rows."
            + " Attach it with TidemarkAdmin.enable (see docs/coprocessors.md), or filter the returned Results";

    private SnapshotQueries() {
    }

    static Get snapshotGet(Get user, ReaderContext reader) throws IOException {
        checkNoFilter(user, "Get");
        checkQuery(user, "Get", user.getTimeRange(), user.getMaxVersions(), reader.seesEveryOwnVersion(),
                user.getMaxResultsPerColumnFamily(), user.getRowOffsetPerColumnFamily());
        checkQualifiers(user.getFamilyMap());
        Get stored = SnapshotQuery.storedVersionsGet(user, reader.readsUpTo());
        stored.setCacheBlocks(user.getCacheBlocks());
        stored.setPriority(user.getPriority());
        FastPathProtocol.markTransaction(stored, reader.startTimestamp());
        return stored;
    }

    static Scan snapshotScan(Scan user, ReaderContext reader) throws IOException {
        checkNoFilter(user, "Scan");
        checkScan(user, reader.seesEveryOwnVersion());
        Scan stored = new Scan(user);
        SnapshotQuery.readStoredVersions(stored, reader.readsUpTo());
        // Rows can resolve to nothing, so the row limit is applied to resolved rows, by the scanner.
        stored.setLimit(-1);
        FastPathProtocol.markTransaction(stored, reader.startTimestamp());
        return stored;
    }

    /**
     * The user's Get, marked for the snapshot coprocessor, which resolves it (filter included) in the region server.
     */
    static Get serverSideGet(Get user, SnapshotAttribute snapshot) throws IOException {
        checkQuery(user, "Get", user.getTimeRange(), user.getMaxVersions(), snapshot.everyOwnVersion(),
                user.getMaxResultsPerColumnFamily(), user.getRowOffsetPerColumnFamily());
        checkQualifiers(user.getFamilyMap());
        Get marked = new Get(user);
        marked.setAttribute(SnapshotAttribute.NAME, snapshot.encode());
        FastPathProtocol.markTransaction(marked, snapshot.startTimestamp());
        return marked;
    }

    /**
     * The user's Scan, marked for the snapshot coprocessor. Region servers return only visible rows, so the row
     * limit applies as given.
     */
    static Scan serverSideScan(Scan user, SnapshotAttribute snapshot) throws IOException {
        checkScan(user, snapshot.everyOwnVersion());
        Scan marked = new Scan(user);
        marked.setAttribute(SnapshotAttribute.NAME, snapshot.encode());
        FastPathProtocol.markTransaction(marked, snapshot.startTimestamp());
        if (marked.getCaching() <= 0) {
            // The region server resolves whole rows outside HBase's size accounting, so rows bound each RPC.
            marked.setCaching(SERVER_SIDE_ROWS_PER_RPC);
        }
        return marked;
    }

    /** @param everyOwnVersion whether the reader is at {@link VisibilityLevel#SNAPSHOT_ALL} */
    private static void checkScan(Scan user, boolean everyOwnVersion) {
        checkQuery(user, "Scan", user.getTimeRange(), user.getMaxVersions(), everyOwnVersion,
                user.getMaxResultsPerColumnFamily(), user.getRowOffsetPerColumnFamily());
        if (user.getBatch() > 0) {
            throw new UnsupportedOperationException("Scan.setBatch" + SERVER_SIDE_LATER);
        }
        if (user.getAllowPartialResults()) {
            throw new UnsupportedOperationException("Scan.setAllowPartialResults" + SERVER_SIDE_LATER);
        }
        if (user.isRaw()) {
            throw new UnsupportedOperationException("a raw Scan cannot be transactional: it returns delete markers"
                    + " and every version; use a plain Table for raw scans");
        }
        checkQualifiers(user.getFamilyMap());
    }

    private static void checkNoFilter(Query query, String kind) {
        if (query.getFilter() != null) {
            throw new UnsupportedOperationException("a Filter on a transactional " + kind + FILTER_NEEDS_COPROCESSOR);
        }
    }

    private static void checkQuery(Query query, String kind, TimeRange timeRange, int maxVersions,
            boolean everyOwnVersion, int maxPerFamily, int offsetPerFamily) {
        if (!timeRange.isAllTime() || !query.getColumnFamilyTimeRange().isEmpty()) {
            throw new TimestampNotAllowedException(kind);
        }
        if (maxVersions > 1 && !everyOwnVersion) {
            throw new UnsupportedOperationException("reading " + maxVersions + " versions with a transactional "
                    + kind + " needs VisibilityLevel.SNAPSHOT_ALL (the transaction's own versions): a snapshot"
                    + " holds one version of each column");
        }
        if (maxPerFamily >= 0 || offsetPerFamily > 0) {
            throw new UnsupportedOperationException(kind + ".setMaxResultsPerColumnFamily/"
                    + "setRowOffsetPerColumnFamily" + SERVER_SIDE_LATER);
        }
    }

    private static void checkQualifiers(Map<byte[], NavigableSet<byte[]>> familyMap) {
        for (NavigableSet<byte[]> qualifiers : familyMap.values()) {
            if (qualifiers != null) {
                for (byte[] q : qualifiers) {
                    CellEncoding.checkUserQualifier(q);
                }
            }
        }
    }
}
