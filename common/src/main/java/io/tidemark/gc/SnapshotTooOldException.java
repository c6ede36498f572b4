package io.tidemark.gc;

import org.apache.hadoop.hbase.DoNotRetryIOException;

/**
 * A transactional read was refused because its snapshot is at or below the garbage-collection horizon of a region:
 * a compaction there dropped versions at or below the low watermark it read, and this snapshot may need some of
 * them. Reading on would return wrong data (a column without its value), so the read fails instead. The transaction
 * cannot go on; begin a new one. Thrown by the region server; HBase re-creates it on the client by class name.
 */
public class SnapshotTooOldException extends DoNotRetryIOException {

    private static final long serialVersionUID = 1L;

    /** HBase re-creates remote exceptions through this constructor. */
    public SnapshotTooOldException(String message) {
        super(message);
    }

    /** The refusal of a read at {@code snapshot} by region {@code region} whose horizon is {@code horizon}. */
    public static SnapshotTooOldException refused(long snapshot, long horizon, String region) {
        return new SnapshotTooOldException("snapshot " + snapshot + " is too old for region " + region
                + ": compaction may have dropped versions at or below " + horizon + " (the low watermark it"
                + " collected with, or the persisted one after the region opened) that this snapshot reads;"
                + " begin a new transaction and read again");
    }
}
