package io.tidemark.coprocessor.snapshot;

import io.tidemark.visibility.SnapshotQuery;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.client.Scan;

import java.io.IOException;

/**
 * Rewrites a transactional Scan (or a Get turned into one) into the read of stored versions the snapshot needs
 * ({@link SnapshotQuery}): the requested columns plus their tombstones and shadow cells, the newest few versions up
 * to the newest version the reader can see (its start, or its latest visible checkpoint), and no user filter (it runs
 * later, on visible cells).
 */
final class SnapshotScans {

    private SnapshotScans() {
    }

    static void toStoredVersionsScan(Scan scan, long readsUpTo) throws IOException {
        if (scan.getBatch() > 0 || scan.getAllowPartialResults()) {
            throw new DoNotRetryIOException("a transactional scan cannot return partial rows (Scan.setBatch,"
                    + " Scan.setAllowPartialResults): a row's snapshot is only known once the whole row is read");
        }
        if (scan.isRaw()) {
            throw new DoNotRetryIOException("a raw Scan cannot be transactional: drop the tidemark.snapshot"
                    + " attribute to read raw cells");
        }
        SnapshotQuery.readStoredVersions(scan, readsUpTo);
        scan.setFilter(null);
        scan.setMaxResultsPerColumnFamily(-1);
        scan.setRowOffsetPerColumnFamily(0);
    }
}
