package io.tidemark.coprocessor.snapshot;

import io.tidemark.encoding.CellEncoding;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeMap;

/**
 * Rewrites a transactional Scan (or a Get turned into one) into the read of stored versions the snapshot needs:
 * the requested columns plus their tombstones and shadow cells, the newest {@value #VERSIONS_PER_READ} versions up
 * to the start timestamp (older ones are fetched only for columns where those are all invisible), and no user filter
 * (it runs later, on visible cells).
 */
final class SnapshotScans {

    /** Versions read per qualifier at first: usually the newest is visible, and reading all would cost every row. */
    static final int VERSIONS_PER_READ = 4;

    private SnapshotScans() {
    }

    static void toStoredVersionsScan(Scan scan, long snapshot) throws IOException {
        if (scan.getBatch() > 0 || scan.getAllowPartialResults()) {
            throw new DoNotRetryIOException("a transactional scan cannot return partial rows (Scan.setBatch,"
                    + " Scan.setAllowPartialResults): a row's snapshot is only known once the whole row is read");
        }
        if (scan.isRaw()) {
            throw new DoNotRetryIOException("a raw Scan cannot be transactional: drop the tidemark.snapshot"
                    + " attribute to read raw cells");
        }
        Map<byte[], NavigableSet<byte[]>> columns = new TreeMap<>(Bytes.BYTES_COMPARATOR);
        columns.putAll(scan.getFamilyMap());
        scan.setFamilyMap(new TreeMap<>(Bytes.BYTES_COMPARATOR));
        for (Map.Entry<byte[], NavigableSet<byte[]>> f : columns.entrySet()) {
            if (f.getValue() == null || f.getValue().isEmpty()) {
                scan.addFamily(f.getKey());
            } else {
                for (byte[] q : f.getValue()) {
                    scan.addColumn(f.getKey(), q);
                    scan.addColumn(f.getKey(), CellEncoding.tombstoneQualifier(q));
                    scan.addColumn(f.getKey(), CellEncoding.shadowQualifier(q));
                }
            }
        }
        scan.setFilter(null);
        scan.setTimeRange(0, snapshot + 1);
        scan.readVersions(VERSIONS_PER_READ);
        scan.setMaxResultsPerColumnFamily(-1);
        scan.setRowOffsetPerColumnFamily(0);
    }

    /** The versions of one column older than {@code before}, with its tombstones and shadow cells. */
    static Get olderVersions(byte[] row, byte[] family, byte[] qualifier, long before) throws IOException {
        return new Get(row)
                .addColumn(family, qualifier)
                .addColumn(family, CellEncoding.tombstoneQualifier(qualifier))
                .addColumn(family, CellEncoding.shadowQualifier(qualifier))
                .setTimeRange(0, before)
                .readVersions(VERSIONS_PER_READ);
    }
}
