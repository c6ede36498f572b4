package io.tidemark.coprocessor.binding;

import io.tidemark.committable.CommitRecord;
import io.tidemark.committable.CommitRecordDeadline;
import io.tidemark.committable.CommitState;
import io.tidemark.committable.CommitTable;
import io.tidemark.committable.DecisionKeys;
import io.tidemark.committable.HBaseCommitTable;
import io.tidemark.coprocessor.AsRegionServer;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.util.List;

/**
 * The commit table a region's table is bound to, as the region server may use it: with the salt buckets its layout row
 * records, opened at first use (region open reads no other table) and kept for the life of the region. Every lookup,
 * invalidation (and its undo) and low-watermark read of the region goes through it, and through no other commit
 * table. A region server decides nothing itself: writing or deleting a commit record, or raising the low watermark,
 * is refused here (docs/security.md, "Region servers"). It invalidates (and undoes its invalidations) as the region
 * server ({@link AsRegionServer}), never as the caller whose request it serves. Thread-safe.
 */
public final class BoundCommitTable implements CommitTable {

    private final Connection connection;
    private final TableName name;
    private final DecisionKeys keys;
    private volatile @Nullable HBaseCommitTable opened;

    /** @param keys the decision keys of the cluster's TSOs, with which the region server undoes its invalidations */
    public BoundCommitTable(Connection connection, TableName name, DecisionKeys keys) {
        this.connection = connection;
        this.name = name;
        this.keys = keys;
    }

    public TableName name() {
        return name;
    }

    /**
     * The commit table, its layout read on first use.
     *
     * @throws io.tidemark.committable.CommitTableMismatchException when its layout row records no salt buckets
     */
    public HBaseCommitTable opened() throws IOException {
        HBaseCommitTable table = opened;
        if (table == null) {
            synchronized (this) {
                table = opened;
                if (table == null) {
                    table = HBaseCommitTable.asRecorded(connection, name, keys);
                    opened = table;
                }
            }
        }
        return table;
    }

    @Override
    public CommitState lookup(long startTimestamp) throws IOException {
        return opened().lookup(startTimestamp);
    }

    @Override
    public CommitState invalidate(long startTimestamp) throws IOException {
        return AsRegionServer.call(() -> opened().invalidate(startTimestamp));
    }

    @Override
    public void undoInvalidation(long startTimestamp) throws IOException {
        AsRegionServer.run(() -> opened().undoInvalidation(startTimestamp));
    }

    @Override
    public long readLowWatermark() throws IOException {
        return opened().readLowWatermark();
    }

    @Override
    public boolean tryCommit(CommitRecord record, CommitRecordDeadline deadline) {
        throw refused("write a commit record");
    }

    @Override
    public boolean[] tryCommitAll(List<CommitRecord> records, CommitRecordDeadline deadline) {
        throw refused("write commit records");
    }

    @Override
    public void release(CommitRecord record) {
        throw refused("remove a commit record");
    }

    @Override
    public void releaseAll(List<CommitRecord> records) {
        throw refused("remove commit records");
    }

    @Override
    public void raiseLowWatermark(long lowWatermark) {
        throw refused("raise the low watermark");
    }

    private UnsupportedOperationException refused(String what) {
        return new UnsupportedOperationException("a region server does not " + what + " (commit table " + name
                + "): only clients and TSOs decide transactions");
    }
}
