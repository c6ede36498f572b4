package io.tidemark.testing;

import io.tidemark.client.CommitRecordWriter;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionException;
import io.tidemark.client.TransactionManager;
import io.tidemark.committable.CommitRecord;
import io.tidemark.committable.CommitRecordDeadline;
import io.tidemark.committable.CommitTable;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A commit-record writer ({@link TransactionManager.Builder#commitRecordWriter}) that holds every record between the
 * commit at the TSO and its write until the test releases it: a low-latency transaction that has its commit timestamp
 * but no record yet, for as long as the test needs one.
 */
public final class HeldCommitRecords implements CommitRecordWriter {

    /** How long a record is held at the most, so that a test that fails before releasing does not hang. */
    private static final long HOLD_SECONDS = 120;
    private static final long HELD_WAIT_SECONDS = 30;

    private final CommitTable commitTable;
    private final CountDownLatch held = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);
    private volatile CommitRecord lastHeld;

    /** @param commitTable where the records are written once released */
    public HeldCommitRecords(CommitTable commitTable) {
        this.commitTable = commitTable;
    }

    @Override
    public boolean tryCommit(CommitRecord record, CommitRecordDeadline deadline) throws IOException {
        lastHeld = record;
        held.countDown();
        try {
            if (!released.await(HOLD_SECONDS, TimeUnit.SECONDS)) {
                throw new IOException("the test never released the held commit record " + record);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while holding the commit record " + record);
        }
        return commitTable.tryCommit(record, deadline);
    }

    /**
     * Waits until a record is held: its transaction got its commit timestamp from the TSO.
     *
     * @throws IllegalStateException when no record arrives within 30 seconds
     */
    public void awaitHeld() throws InterruptedException {
        if (!held.await(HELD_WAIT_SECONDS, TimeUnit.SECONDS)) {
            throw new IllegalStateException("no commit reached its commit record within " + HELD_WAIT_SECONDS + " s");
        }
    }

    /** The record held last (as the TSO sealed it), or null when none was yet. */
    public CommitRecord heldRecord() {
        return lastHeld;
    }

    /** Lets the held records, and every later one, be written. */
    public void release() {
        released.countDown();
    }

    /**
     * Commits {@code tx} on another thread, as a transaction whose record is held must be committed; the future
     * fails with the commit's {@link TransactionException}.
     */
    public static CompletableFuture<Void> commitInBackground(TransactionManager tm, Transaction tx) {
        return CompletableFuture.runAsync(() -> {
            try {
                tm.commit(tx);
            } catch (TransactionException e) {
                throw new CompletionException(e);
            }
        });
    }
}
