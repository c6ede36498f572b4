package io.tidemark.client;

import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.metrics.ScanMetrics;

import java.io.IOException;

/** Scans rows as of a transaction's snapshot, skipping rows with nothing visible and applying the row limit. */
final class SnapshotScanner implements ResultScanner {

    private final Transaction tx;
    private final ResultScanner raw;
    private final SnapshotReader reader;
    private final int limit;
    private int returned;

    SnapshotScanner(Transaction tx, ResultScanner raw, SnapshotReader reader, int limit) {
        this.tx = tx;
        this.raw = raw;
        this.reader = reader;
        this.limit = limit;
    }

    @Override
    public Result next() throws IOException {
        tx.checkRunning("scan");
        if (limit > 0 && returned >= limit) {
            return null;
        }
        Result row;
        while ((row = raw.next()) != null) {
            Result visible = reader.resolveRow(row);
            if (!visible.isEmpty()) {
                returned++;
                return visible;
            }
        }
        return null;
    }

    @Override
    public void close() {
        raw.close();
    }

    @Override
    public boolean renewLease() {
        return raw.renewLease();
    }

    @Override
    public ScanMetrics getScanMetrics() {
        return raw.getScanMetrics();
    }
}
