package io.tidemark.committable;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * Group commit for commit records written by clients (low-latency mode): concurrent transactions hand their
 * records to a few writer threads; each sends everything that queued up during its previous round trip in one
 * request. Under load many commits share one HBase round trip; alone, a commit pays just one. Several writers keep
 * several round trips in flight, because a region server works through one request's regions one after the other,
 * with a WAL sync each, while concurrent requests share syncs (see {@link ParallelCommitWriter}).
 *
 * <p>Each writer has its own queue and serves a fixed share of the table's partitions ({@link
 * CommitTable#partition}): record i goes to writer {@code partition(i) mod writers}, so a batch touches at most
 * {@code ceil(partitions / writers)} regions and pays that many syncs, not one per region of the whole table.
 *
 * <p>A caller that waits for its outcome anyway ({@link #commit}) skips the hand-off when nothing is waiting and a
 * round trip is free: it writes its own record on its own thread, as a lone commit would without group commit. Round
 * trips of both kinds share one limit (the writer threads' number), so records that arrive while every round trip is
 * busy queue up and go together in the next batch: batching starts exactly when commits pile up.
 */
public final class GroupCommitWriter implements AutoCloseable {

    private static final class Pending {
        final CommitRecord record;
        final CommitRecordDeadline deadline;
        final CompletableFuture<Boolean> result = new CompletableFuture<>();

        Pending(CommitRecord record, CommitRecordDeadline deadline) {
            this.record = record;
            this.deadline = deadline;
        }
    }

    private final CommitTable commitTable;
    private final int maxBatch;
    private final IntConsumer batchSizes;
    /** One queue per writer thread, indexed by {@link #lane}. */
    private final List<LinkedBlockingQueue<Pending>> lanes = new ArrayList<>();
    /** Round trips that may be in flight at once, batches and direct writes together. */
    private final Semaphore roundTrips;
    /** Records queued and not yet taken into a batch that holds a round trip; while any wait, nobody writes directly. */
    private final AtomicInteger waiting = new AtomicInteger();
    private final List<Thread> writers = new ArrayList<>();
    private volatile boolean closed;

    public GroupCommitWriter(CommitTable commitTable, int maxBatch, int writerThreads) {
        this(commitTable, maxBatch, writerThreads, size -> { });
    }

    /** @param batchSizes told the number of records of each round trip (e.g. for a histogram), on a writer thread */
    public GroupCommitWriter(CommitTable commitTable, int maxBatch, int writerThreads, IntConsumer batchSizes) {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("group commit batch size must be positive, was " + maxBatch);
        }
        if (writerThreads < 1) {
            throw new IllegalArgumentException("group commit writer threads must be positive, was " + writerThreads);
        }
        this.commitTable = commitTable;
        this.maxBatch = maxBatch;
        this.batchSizes = batchSizes;
        this.roundTrips = new Semaphore(writerThreads);
        for (int i = 0; i < writerThreads; i++) {
            LinkedBlockingQueue<Pending> lane = new LinkedBlockingQueue<>();
            lanes.add(lane);
            Thread writer = new Thread(() -> run(lane), "tidemark-group-commit-" + i);
            writer.setDaemon(true);
            writer.start();
            writers.add(writer);
        }
    }

    /** {@link #tryCommit(CommitRecord, CommitRecordDeadline)} without a deadline, for tools and tests. */
    public CompletableFuture<Boolean> tryCommit(CommitRecord record) {
        return tryCommit(record, CommitRecordDeadline.NONE);
    }

    /**
     * Completes with true when the record was written, false when a reader had invalidated the transaction, or
     * exceptionally with the {@link IOException} of the round trip (then the outcome is unknown until looked up). A
     * record still queued when its deadline passes is never sent: it fails with an {@link IOException} too.
     */
    public CompletableFuture<Boolean> tryCommit(CommitRecord record, CommitRecordDeadline deadline) {
        Pending pending = new Pending(record, deadline);
        if (closed) {
            pending.result.completeExceptionally(new IOException("group commit writer is closed"));
            return pending.result;
        }
        waiting.incrementAndGet();
        lanes.get(lane(record)).add(pending);
        return pending.result;
    }

    private int lane(CommitRecord record) {
        return Math.floorMod(commitTable.partition(record.startTimestamp()), lanes.size());
    }

    /**
     * Writes {@code record} and waits for the outcome: true when written, false when a reader had invalidated the
     * transaction. When no record is waiting and a round trip is free, the calling thread writes the record itself (a
     * batch of one, no hand-off); otherwise it joins the next batch, as {@link #tryCommit(CommitRecord,
     * CommitRecordDeadline)} does.
     *
     * @throws IOException when the round trip failed (the outcome is unknown until looked up), the deadline passed
     *         before the write could start, or the writer is closed
     */
    public boolean commit(CommitRecord record, CommitRecordDeadline deadline) throws IOException {
        if (!closed && waiting.get() == 0 && roundTrips.tryAcquire()) {
            try {
                deadline.checkWriteMayStart();
                batchSizes.accept(1);
                return commitTable.tryCommitAll(List.of(record), deadline)[0];
            } finally {
                roundTrips.release();
            }
        }
        try {
            return tryCommit(record, deadline).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw (IOException) new InterruptedIOException("interrupted while writing " + record).initCause(e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException) {
                throw (IOException) e.getCause();
            }
            throw new IOException("writing " + record + " failed", e.getCause());
        }
    }

    private void run(LinkedBlockingQueue<Pending> queue) {
        List<Pending> batch = new ArrayList<>(maxBatch);
        while (!closed || !queue.isEmpty()) {
            try {
                Pending first = queue.poll(100, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                roundTrips.acquire();
                try {
                    queue.drainTo(batch, maxBatch - 1);
                    waiting.addAndGet(-batch.size());
                    write(batch);
                } finally {
                    roundTrips.release();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } finally {
                batch.clear();
            }
        }
        failRemaining(queue);
    }

    private void write(List<Pending> queued) {
        List<Pending> batch = new ArrayList<>(queued.size());
        CommitRecordDeadline deadline = CommitRecordDeadline.NONE;
        for (Pending p : queued) {
            try {
                p.deadline.checkWriteMayStart();
                batch.add(p);
                deadline = deadline.earlier(p.deadline);
            } catch (IOException late) {
                p.result.completeExceptionally(late);
            }
        }
        if (batch.isEmpty()) {
            return;
        }
        List<CommitRecord> records = new ArrayList<>(batch.size());
        for (Pending p : batch) {
            records.add(p.record);
        }
        batchSizes.accept(records.size());
        try {
            boolean[] won = commitTable.tryCommitAll(records, deadline);
            for (int i = 0; i < won.length; i++) {
                batch.get(i).result.complete(won[i]);
            }
        } catch (IOException | RuntimeException e) {
            for (Pending p : batch) {
                p.result.completeExceptionally(e);
            }
        }
    }

    private static void failRemaining(LinkedBlockingQueue<Pending> queue) {
        Pending p;
        while ((p = queue.poll()) != null) {
            p.result.completeExceptionally(new IOException("group commit writer is closed"));
        }
    }

    /** Writes what is queued, then stops the writer threads. */
    @Override
    public void close() {
        closed = true;
        try {
            for (Thread writer : writers) {
                writer.join(10_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        lanes.forEach(GroupCommitWriter::failRemaining);
    }
}
