package io.tidemark.client;

import io.tidemark.client.tso.CommitResult;
import io.tidemark.committable.CommitRecord;
import io.tidemark.committable.CommitRecordDeadline;
import io.tidemark.committable.CommitState;
import io.tidemark.committable.CommitTableMismatchException;
import io.tidemark.committable.CommitTableSettings;
import io.tidemark.concurrent.Futures;
import io.tidemark.protocol.CommitMode;
import io.tidemark.security.Authorization;
import org.apache.hadoop.hbase.security.AccessDeniedException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;

/**
 * How a transaction that wrote commits through the TSO, and how one that cannot commit ends: the single statement of
 * these rules, which {@link TransactionManager} (blocking) and {@link AsyncTransactionManager} (non-blocking) both
 * follow. Each step's I/O comes from an {@link Io}: the blocking manager's does it on the calling thread and hands
 * back completed futures, so the whole protocol then runs on the caller; the non-blocking manager's returns HBase's
 * and the TSO client's own futures, so the protocol runs on whichever thread completes each step and none waits.
 *
 * <p>The steps (see {@link TransactionManager}): send the writes still kept; refuse a write set larger than the TSO
 * accepts; COMMIT at the TSO; in low-latency mode write the commit record put-if-absent before the deadline taken when
 * COMMIT was sent; when the outcome is unknown, invalidate the transaction's own record and take whichever decision
 * stands; on commit, shadow cells and then the release of the commit record (waited for in
 * {@link PostCommitMode#SYNC}); on abort, removal of the tentative cells, then the
 * {@link TransactionAbortedException} with its reason. The returned futures fail with the exceptions the blocking API
 * throws, unwrapped.
 */
final class CommitProtocol {

    private static final Logger LOG = LoggerFactory.getLogger(CommitProtocol.class);

    /** The I/O of a commit; each future fails with the step's {@link IOException}. */
    interface Io {
        /** Sends every write {@code tx} keeps ({@link WriteBuffer#takeAll}); a failure is remembered by the tx. */
        CompletableFuture<Void> sendBufferedWrites(Transaction tx);

        CompletableFuture<CommitResult> tsoCommit(Transaction tx, long[] conflictIds, long[] tableIds);

        CompletableFuture<Boolean> writeCommitRecord(CommitRecord record, CommitRecordDeadline deadline);

        CompletableFuture<CommitState> invalidate(long startTimestamp);

        CompletableFuture<Void> writeShadowCells(Transaction tx, long commitTimestamp);

        CompletableFuture<Void> releaseCommitRecord(CommitRecord record);

        CompletableFuture<Void> removeTentativeCells(Transaction tx);

        /**
         * Starts a post-commit that the commit does not wait for ({@link PostCommitMode#ASYNC}); closing the manager
         * does. {@code postCommit} starts it and returns its future, which never fails.
         */
        void startPostCommit(Supplier<CompletableFuture<Void>> postCommit);
    }

    private final CommitTableSettings commitTableSettings;
    private final ClientMetrics metrics;
    private final RecentSnapshot recentSnapshot;
    private final CommitPhaseListener commitPhaseListener;
    private final PostCommitMode postCommitMode;

    CommitProtocol(CommitTableSettings commitTableSettings, ClientMetrics metrics, RecentSnapshot recentSnapshot,
            CommitPhaseListener commitPhaseListener, PostCommitMode postCommitMode) {
        this.commitTableSettings = commitTableSettings;
        this.metrics = metrics;
        this.recentSnapshot = recentSnapshot;
        this.commitPhaseListener = commitPhaseListener;
        this.postCommitMode = postCommitMode;
    }

    /**
     * After the transaction's asynchronous operations finished: a failed write aborts it (committing the rest would
     * commit less than the application wrote), and a read refused by a region server rolled it back already.
     */
    CompletableFuture<Void> checkInFlightOutcome(Transaction tx, Io io) {
        Throwable failed = tx.inFlight().firstWriteFailure();
        if (failed != null) {
            return abort(tx, writeFailureReason(failed), failed, io).thenCompose(CompletableFuture::failedFuture);
        }
        try {
            tx.checkRunning("commit");
        } catch (RuntimeException notRunning) {
            return CompletableFuture.failedFuture(notRunning);
        }
        return CompletableFuture.completedFuture(null);
    }

    /**
     * Commits at once, with no I/O, when {@code tx} wrote nothing; then true. Its snapshot is a safe one from now on,
     * since no cell carries its start timestamp.
     */
    boolean committedWithoutWrites(Transaction tx) {
        if (!tx.writeSet().isEmpty()) {
            return false;
        }
        ReadBeforeBegin read = tx.readBeforeBegin();
        if (read != null) {
            // Its one read was the row's latest committed state, which a snapshot at the row's version shows.
            tx.markCommitted(read.version());
            return true;
        }
        tx.markCommitted(tx.startTimestamp());
        recentSnapshot.offer(tx.startTimestamp(), tx.incarnation(), tx.snapshotObtainedNanos());
        return true;
    }

    /** Commits {@code tx}, which wrote, through the TSO: sends its kept writes first. */
    CompletableFuture<Void> commitThroughTso(Transaction tx, Io io) {
        return io.sendBufferedWrites(tx).handle((sent, failed) -> failed == null
                ? decideAtTso(tx, io)
                : abort(tx, writeFailureReason(unwrap(failed)), unwrap(failed), io)
                        .<Void>thenCompose(CompletableFuture::failedFuture))
                .thenCompose(f -> f);
    }

    private CompletableFuture<Void> decideAtTso(Transaction tx, Io io) {
        long start = tx.startTimestamp();
        WriteSet writes = tx.writeSet();
        long[] conflictIds = writes.conflictIds(tx.conflictLevel());
        long[] tableIds = writes.tableIds();
        if (conflictIds.length > tx.maxWriteSet() || tableIds.length > tx.maxWriteSet()) {
            tx.markRolledBack();
            return removeTentativeCells(tx, io).thenCompose(removed -> CompletableFuture.failedFuture(
                    new WriteSetTooLargeException(start, conflictIds.length, tx.conflictLevel(), tx.maxWriteSet())));
        }
        // Taken before COMMIT is sent, so it is no later than the TSO's decision: see TransactionManager.
        CommitRecordDeadline deadline = commitTableSettings.commitRecordDeadline();
        long sent = System.nanoTime();
        return io.tsoCommit(tx, conflictIds, tableIds).handle((result, failed) -> {
            if (failed != null) {
                return settleUnknownOutcome(tx, TransactionAbortedException.Reason.TSO_UNAVAILABLE,
                        Futures.failureOf(unwrap(failed), "the COMMIT request"), io)
                        .thenCompose(commitTs -> completeCommit(tx, new CommitRecord(start, commitTs), io));
            }
            metrics.tsoCommitAnswered(sent);
            if (!result.isCommitted()) {
                return abort(tx, TransactionAbortedException.Reason.of(
                        Objects.requireNonNull(result.abortReason(), "an abort has a reason")), null, io)
                        .<Void>thenCompose(CompletableFuture::failedFuture);
            }
            return recordCommit(tx, result.recordOf(start, tx.durability()), deadline, sent, io);
        }).thenCompose(f -> f);
    }

    /** In low-latency mode the client's own commit record is the commit point; in batched mode the TSO wrote it. */
    private CompletableFuture<Void> recordCommit(Transaction tx, CommitRecord record, CommitRecordDeadline deadline,
            long sent, Io io) {
        long answered = System.nanoTime();
        CompletableFuture<Boolean> recorded = tx.commitMode() == CommitMode.LOW_LATENCY
                ? io.writeCommitRecord(record, deadline) : CompletableFuture.completedFuture(true);
        return recorded.handle((won, failed) -> {
            if (failed != null) {
                Throwable cause = unwrap(failed);
                if (cause instanceof CommitTableMismatchException) {
                    // Refused before anything was written, and only this client writes its record in low-latency
                    // mode: no record can appear, so the transaction did not commit.
                    return abort(tx, TransactionAbortedException.Reason.COMMIT_TABLE_MISMATCH, cause, io)
                            .<Void>thenCompose(CompletableFuture::failedFuture);
                }
                return settleUnknownOutcome(tx, TransactionAbortedException.Reason.COMMIT_TABLE_UNAVAILABLE,
                        Futures.failureOf(cause, "the commit record's write"), io)
                        .thenCompose(commitTs -> completeCommit(tx, new CommitRecord(record.startTimestamp(), commitTs),
                                io));
            }
            if (!won) {
                return abort(tx, TransactionAbortedException.Reason.INVALIDATED, null, io)
                        .<Void>thenCompose(CompletableFuture::failedFuture);
            }
            long written = System.nanoTime();
            recentSnapshot.offer(record.commitTimestamp(), tx.incarnation(), sent);
            return completeCommit(tx, record, io).thenRun(() -> commitPhaseListener.committed(answered - sent,
                    written - answered, System.nanoTime() - written));
        }).thenCompose(f -> f);
    }

    /**
     * The commit's outcome is unknown: invalidating our own record makes it certain. If a commit record is already
     * there, the transaction committed (the future yields its commit timestamp); otherwise it never will.
     */
    private CompletableFuture<Long> settleUnknownOutcome(Transaction tx, TransactionAbortedException.Reason reason,
            IOException cause, Io io) {
        return io.invalidate(tx.startTimestamp()).handle((state, failed) -> {
            if (failed != null) {
                return CompletableFuture.<Long>failedFuture(outcomeUnknown(tx,
                        Futures.failureOf(unwrap(failed), "the invalidation"), cause));
            }
            if (state.isCommitted()) {
                return CompletableFuture.completedFuture(state.commitTimestamp());
            }
            return abort(tx, reason, cause, io).<Long>thenCompose(CompletableFuture::failedFuture);
        }).thenCompose(f -> f);
    }

    private TransactionException outcomeUnknown(Transaction tx, IOException e, IOException cause) {
        e.addSuppressed(cause);
        tx.markOutcomeUnknown();
        metrics.outcomeUnknown();
        String commitTable = commitTableSettings.tableName().getNameAsString();
        AccessDeniedException denied = Authorization.deniedIn(e);
        if (denied != null) {
            return new TransactionException("the outcome of transaction " + tx.startTimestamp() + " is unknown:"
                    + " HBase authorization refused this client's user the commit table " + commitTable + " ("
                    + denied.getMessage() + "), so it could neither write its commit record nor settle its outcome."
                    + " Grant the user READ and WRITE on " + commitTable + " (docs/operations.md, step 4). Its"
                    + " writes stay invisible until a reader or the sweeper settles it through the commit table", e);
        }
        return new TransactionException("the outcome of transaction " + tx.startTimestamp() + " is unknown: the"
                + " commit failed (" + cause.getMessage() + ") and the commit table could not be reached to settle it"
                + " (" + e.getMessage() + "). Readers settle it through the commit table; check whether its writes"
                + " are visible before retrying", e);
    }

    /**
     * Rolls {@code tx} back for {@code reason}: the future yields the exception to report, once its tentative cells
     * are removed (or their removal failed, which is harmless: readers skip or invalidate them).
     */
    CompletableFuture<TransactionAbortedException> abort(Transaction tx, TransactionAbortedException.Reason reason,
            @Nullable Throwable cause, Io io) {
        tx.markRolledBack();
        metrics.aborted(reason);
        TransactionAbortedException aborted = new TransactionAbortedException(tx.startTimestamp(), reason, cause);
        return removeTentativeCells(tx, io).thenApply(removed -> aborted);
    }

    /**
     * Removes what {@code tx} wrote to HBase, if anything; never fails. A failure is harmless for correctness: no
     * commit record can appear for the transaction any more, so readers skip (or invalidate) these cells; they only
     * cost reads until removed.
     */
    CompletableFuture<Void> removeTentativeCells(Transaction tx, Io io) {
        WriteBuffer buffer = tx.writeBuffer();
        boolean sent = !buffer.isEnabled() || buffer.sentAny();
        buffer.clear();
        if (!sent) {
            // Nothing of it ever reached HBase.
            return CompletableFuture.completedFuture(null);
        }
        return io.removeTentativeCells(tx).exceptionally(failed -> {
            LOG.warn("could not remove the tentative cells of aborted transaction {}", tx.startTimestamp(),
                    unwrap(failed));
            return null;
        });
    }

    /**
     * Marks {@code tx} committed as {@code record} says and starts its post-commit, waited for in
     * {@link PostCommitMode#SYNC}. A record the TSO sealed carries the token that removes it afterwards; one the
     * client settled itself (an unknown outcome found committed) does not, and stays for the sweeper where the
     * commit-record guard checks seals.
     */
    CompletableFuture<Void> completeCommit(Transaction tx, CommitRecord record, Io io) {
        tx.markCommitted(record.commitTimestamp());
        metrics.committed();
        if (postCommitMode == PostCommitMode.ASYNC) {
            io.startPostCommit(() -> postCommit(tx, record, io));
            return CompletableFuture.completedFuture(null);
        }
        return postCommit(tx, record, io);
    }

    /** Shadow cells first; the commit record may only go once every shadow cell is durable. Never fails. */
    private CompletableFuture<Void> postCommit(Transaction tx, CommitRecord record, Io io) {
        long commitTs = record.commitTimestamp();
        return io.writeShadowCells(tx, commitTs).handle((written, failed) -> {
            if (failed != null) {
                LOG.warn("transaction {} committed at {} but its shadow cells could not be written; its commit record"
                        + " stays in the commit table and readers resolve its writes there", tx.startTimestamp(),
                        commitTs, unwrap(failed));
                return CompletableFuture.<Void>completedFuture(null);
            }
            return io.releaseCommitRecord(record).exceptionally(notReleased -> {
                LOG.warn("could not delete the commit record of transaction {}; it is harmless but stays until"
                        + " removed", tx.startTimestamp(), unwrap(notReleased));
                return null;
            });
        }).thenCompose(f -> f);
    }

    /** The abort a failed write of the transaction means: the region server's refusal, or WRITE_FAILED. */
    static TransactionAbortedException.Reason writeFailureReason(Throwable failed) {
        TransactionAbortedException.Reason refused = TransactionAborts.refusalReason(failed);
        return refused != null ? refused : TransactionAbortedException.Reason.WRITE_FAILED;
    }

    /** The failure itself, without the wrappers futures put around it. */
    static Throwable unwrap(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
