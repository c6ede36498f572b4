package io.tidemark.client;

import io.tidemark.fastpath.FastPathErrors;
import io.tidemark.fastpath.NewerFastPathWriteException;
import io.tidemark.gc.SnapshotTooOldException;

import java.io.IOException;

/**
 * Region-server refusals after which a transaction cannot go on: a tentative write refused because of a newer
 * fast-path write, and a read refused because the snapshot is older than the garbage-collection horizon. The
 * transaction is rolled back and the caller gets a {@link TransactionAbortedException} saying why.
 */
final class TransactionAborts {

    private TransactionAborts() {
    }

    /** The abort {@code failure} means for {@code tx}, after rolling it back; or {@code failure} itself. */
    static IOException abortIfRefused(Transaction tx, IOException failure) {
        if (failure instanceof TransactionAbortedException) {
            return failure;
        }
        IOException refusal = FastPathErrors.find(failure, NewerFastPathWriteException.class);
        TransactionAbortedException.Reason reason = TransactionAbortedException.Reason.NEWER_FAST_PATH_WRITE;
        if (refusal == null) {
            refusal = FastPathErrors.find(failure, SnapshotTooOldException.class);
            reason = TransactionAbortedException.Reason.SNAPSHOT_TOO_OLD;
        }
        if (refusal == null) {
            return failure;
        }
        if (tx.state() == TransactionState.RUNNING) {
            tx.manager().rollback(tx);
        }
        tx.manager().metrics().aborted(reason);
        return new TransactionAbortedException(tx.startTimestamp(), reason, refusal);
    }
}
