package io.tidemark.client;

import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.metrics.ScanMetrics;
import org.jspecify.annotations.Nullable;

import java.io.IOException;

/** Scans rows as of a transaction's snapshot, skipping rows with nothing visible and applying the row limit. */
final class SnapshotScanner implements ResultScanner {

    private final Transaction tx;
    private final ResultScanner stored;
    private final SnapshotReader reader;
    private final int limit;
    /** The versions per column the user's Scan asked for ({@code Scan.readVersions}). */
    private final int maxVersions;
    private int returned;

    SnapshotScanner(Transaction tx, ResultScanner stored, SnapshotReader reader, int limit, int maxVersions) {
        this.tx = tx;
        this.stored = stored;
        this.reader = reader;
        this.limit = limit;
        this.maxVersions = maxVersions;
    }

    @Override
    public @Nullable Result next() throws IOException {
        tx.checkRunning("scan");
        if (limit > 0 && returned >= limit) {
            return null;
        }
        try {
            Result row;
            while ((row = stored.next()) != null) {
                Result visible = reader.resolveRow(row, maxVersions);
                if (!visible.isEmpty()) {
                    returned++;
                    return visible;
                }
            }
            return null;
        } catch (IOException e) {
            throw TransactionAborts.abortIfRefused(tx, e);
        }
    }

    @Override
    public void close() {
        stored.close();
    }

    @Override
    public boolean renewLease() {
        return stored.renewLease();
    }

    @Override
    public ScanMetrics getScanMetrics() {
        return stored.getScanMetrics();
    }
}
