package io.tidemark.client;

import io.tidemark.fastpath.FastPathErrors;
import io.tidemark.fastpath.NewerFastPathWriteException;
import io.tidemark.gc.SnapshotTooOldException;
import io.tidemark.table.TableLoadingException;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.util.function.Consumer;

/**
 * Region-server refusals after which a transaction cannot go on: a tentative write refused because of a newer
 * fast-path write, and a read refused because the snapshot is older than the garbage-collection horizon. The
 * transaction is rolled back and the caller gets a {@link TransactionAbortedException} saying why. A refusal because
 * the table is being bulk loaded aborts nothing (the operation read or wrote nothing); the caller gets the
 * {@link TableLoadingException} itself, whatever HBase wrapped it in.
 */
final class TransactionAborts {

    private TransactionAborts() {
    }

    /** The abort {@code failure} means for {@code tx}, after rolling it back; or {@code failure} itself. */
    static IOException abortIfRefused(Transaction tx, IOException failure) {
        return abortIfRefused(tx, failure, running -> running.manager().rollback(running));
    }

    /** {@link #abortIfRefused(Transaction, IOException)} rolling back with {@code rollback}, e.g. without blocking. */
    static IOException abortIfRefused(Transaction tx, IOException failure, Consumer<Transaction> rollback) {
        if (failure instanceof TransactionAbortedException) {
            return failure;
        }
        TableLoadingException loading = FastPathErrors.find(failure, TableLoadingException.class);
        if (loading != null) {
            return loading;
        }
        TransactionAbortedException.Reason reason = refusalReason(failure);
        if (reason == null) {
            return failure;
        }
        if (tx.state() == TransactionState.RUNNING) {
            rollback.accept(tx);
        }
        tx.manager().metrics().aborted(reason);
        return new TransactionAbortedException(tx.startTimestamp(), reason, refusal(failure));
    }

    /** The abort reason of a region-server refusal somewhere in {@code failure}'s causes; null when there is none. */
    static TransactionAbortedException.@Nullable Reason refusalReason(Throwable failure) {
        if (FastPathErrors.find(failure, NewerFastPathWriteException.class) != null) {
            return TransactionAbortedException.Reason.NEWER_FAST_PATH_WRITE;
        }
        if (FastPathErrors.find(failure, SnapshotTooOldException.class) != null) {
            return TransactionAbortedException.Reason.SNAPSHOT_TOO_OLD;
        }
        return null;
    }

    private static @Nullable IOException refusal(Throwable failure) {
        IOException refusal = FastPathErrors.find(failure, NewerFastPathWriteException.class);
        return refusal != null ? refusal : FastPathErrors.find(failure, SnapshotTooOldException.class);
    }
}
