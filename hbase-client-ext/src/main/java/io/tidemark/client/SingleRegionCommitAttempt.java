package io.tidemark.client;

import io.tidemark.fastpath.IdempotencyKey;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.TableName;

/**
 * What a transaction sent as its single-region commit, enough to settle it later
 * ({@link SingleRegionCommitter#settle}): the table, the anchor row the request went to and keeps its operation record
 * in, the request's idempotency key, and for a write-only commit (a transaction that never began) the session floor it
 * carried.
 */
final class SingleRegionCommitAttempt {

    final TableName table;
    final byte[] anchorRow;
    final IdempotencyKey key;
    /** The snapshot of the transaction, or {@link Timestamps#NONE} for a write-only commit. */
    final long snapshot;
    /** The session floor of a write-only commit; {@link Timestamps#NONE} otherwise. */
    final long floor;
    /** The region declined it: the transaction went on through the TSO. */
    private volatile boolean declined;

    SingleRegionCommitAttempt(TableName table, byte[] anchorRow, IdempotencyKey key, long snapshot, long floor) {
        this.table = table;
        this.anchorRow = anchorRow;
        this.key = key;
        this.snapshot = snapshot;
        this.floor = floor;
    }

    /** Whether the transaction committed write-only, without a snapshot. */
    boolean isWriteOnly() {
        return snapshot == Timestamps.NONE;
    }

    void declined() {
        declined = true;
    }

    boolean isDeclined() {
        return declined;
    }
}
