package io.tidemark.client;

import io.tidemark.committable.CommitRecord;
import io.tidemark.committable.CommitRecordDeadline;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/**
 * Writes a transaction's own commit record in low-latency mode: the commit point. Put-if-absent, so that a reader's
 * invalidation and the commit cannot both win.
 *
 * <p>A fault-injection seam: {@link TransactionManager.Builder#commitRecordWriter} replaces the default group-commit
 * writer, so tests can delay the commit point, fail it, or fail after it took effect. Applications have no reason to
 * replace it.
 */
public interface CommitRecordWriter {

    /**
     * True when the record was written, false when a reader had invalidated the transaction; an IOException leaves
     * the outcome unknown. No write may be sent after {@code deadline} (taken when COMMIT was sent): the commit-table
     * sweeper's proof that an invalidation marker may be removed rests on it.
     */
    boolean tryCommit(CommitRecord record, CommitRecordDeadline deadline) throws IOException;

    /**
     * {@link #tryCommit} for the non-blocking API ({@link AsyncTransactionManager}): the future fails with the
     * IOException. The default writer sends the record without waiting; this default, for replacements written for
     * tests, calls {@link #tryCommit} on the calling thread.
     */
    default CompletableFuture<Boolean> tryCommitAsync(CommitRecord record, CommitRecordDeadline deadline) {
        try {
            return CompletableFuture.completedFuture(tryCommit(record, deadline));
        } catch (IOException | RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }
}
