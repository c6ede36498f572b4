package io.tidemark.client;

import io.tidemark.encoding.CellEncoding;
import io.tidemark.fastpath.FastPathProtocol;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Query;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.io.TimeRange;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeMap;

/**
 * Turns a user's Get or Scan into the HBase read of a snapshot: the requested columns plus their tombstones and
 * shadow cells, versions up to the start timestamp, a few versions per column. Refuses what cannot be answered
 * correctly yet.
 */
final class SnapshotQueries {

    /** Versions fetched per qualifier in one read; older ones are fetched only when these are all invisible. */
    static final int VERSIONS_PER_READ = 4;

    private static final String SERVER_SIDE_LATER = " is not supported in transactions yet: it would run on raw"
            + " versions, before the snapshot is resolved. Server-side snapshot reads come with the coprocessor"
            + " (issue #3); until then, do this on the returned Results";

    private SnapshotQueries() {
    }

    static Get snapshotGet(Get user, long snapshot) throws IOException {
        checkQuery(user, "Get", user.getTimeRange(), user.getMaxVersions(), user.getMaxResultsPerColumnFamily(),
                user.getRowOffsetPerColumnFamily());
        checkQualifiers(user.getFamilyMap());
        Get raw = new Get(user.getRow());
        for (Map.Entry<byte[], NavigableSet<byte[]>> f : user.getFamilyMap().entrySet()) {
            if (f.getValue() == null || f.getValue().isEmpty()) {
                raw.addFamily(f.getKey());
            } else {
                for (byte[] q : f.getValue()) {
                    raw.addColumn(f.getKey(), q);
                    raw.addColumn(f.getKey(), CellEncoding.tombstoneQualifier(q));
                    raw.addColumn(f.getKey(), CellEncoding.shadowQualifier(q));
                }
            }
        }
        raw.setCacheBlocks(user.getCacheBlocks());
        raw.setPriority(user.getPriority());
        raw.setTimeRange(0, snapshot + 1);
        raw.readVersions(VERSIONS_PER_READ);
        FastPathProtocol.markTransaction(raw, snapshot);
        return raw;
    }

    /** The older versions of one column, below {@code before}. */
    static Get olderVersions(byte[] row, byte[] family, byte[] qualifier, long before) throws IOException {
        return new Get(row)
                .addColumn(family, qualifier)
                .addColumn(family, CellEncoding.tombstoneQualifier(qualifier))
                .addColumn(family, CellEncoding.shadowQualifier(qualifier))
                .setTimeRange(0, before)
                .readVersions(VERSIONS_PER_READ);
    }

    static Scan snapshotScan(Scan user, long snapshot) throws IOException {
        checkQuery(user, "Scan", user.getTimeRange(), user.getMaxVersions(), user.getMaxResultsPerColumnFamily(),
                user.getRowOffsetPerColumnFamily());
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
        Scan raw = new Scan(user);
        raw.setFamilyMap(new TreeMap<>(Bytes.BYTES_COMPARATOR));
        for (Map.Entry<byte[], NavigableSet<byte[]>> f : user.getFamilyMap().entrySet()) {
            if (f.getValue() == null || f.getValue().isEmpty()) {
                raw.addFamily(f.getKey());
            } else {
                for (byte[] q : f.getValue()) {
                    raw.addColumn(f.getKey(), q);
                    raw.addColumn(f.getKey(), CellEncoding.tombstoneQualifier(q));
                    raw.addColumn(f.getKey(), CellEncoding.shadowQualifier(q));
                }
            }
        }
        // Rows can resolve to nothing, so the row limit is applied to resolved rows, by the scanner.
        raw.setLimit(-1);
        raw.setTimeRange(0, snapshot + 1);
        raw.readVersions(VERSIONS_PER_READ);
        FastPathProtocol.markTransaction(raw, snapshot);
        return raw;
    }

    private static void checkQuery(Query query, String kind, TimeRange timeRange, int maxVersions, int maxPerFamily,
            int offsetPerFamily) {
        if (!timeRange.isAllTime() || !query.getColumnFamilyTimeRange().isEmpty()) {
            throw new TimestampNotAllowedException(kind);
        }
        if (query.getFilter() != null) {
            throw new UnsupportedOperationException("a Filter on a transactional " + kind + SERVER_SIDE_LATER);
        }
        if (maxVersions > 1) {
            throw new UnsupportedOperationException("reading " + maxVersions + " versions with a transactional "
                    + kind + " is not supported: a snapshot holds one version of each column");
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
