package io.tidemark.client;

import io.tidemark.fastpath.IdempotencyKey;
import org.apache.hadoop.hbase.TableName;

/**
 * What a transaction sent as its single-region commit, enough to settle it later
 * ({@link SingleRegionCommitter#settle}): the table, the anchor row the request went to and keeps its operation record
 * in, and the request's idempotency key.
 */
final class SingleRegionCommitAttempt {

    final TableName table;
    final byte[] anchorRow;
    final IdempotencyKey key;
    /** The region declined it: the transaction went on through the TSO. */
    private volatile boolean declined;

    SingleRegionCommitAttempt(TableName table, byte[] anchorRow, IdempotencyKey key) {
        this.table = table;
        this.anchorRow = anchorRow;
        this.key = key;
    }

    void declined() {
        declined = true;
    }

    boolean isDeclined() {
        return declined;
    }
}
