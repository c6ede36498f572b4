package io.tidemark.committable;

import io.tidemark.concurrent.Futures;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * Group commit for commit records written by clients (low-latency mode): concurrent transactions' records share
 * commit-table round trips. Under load many commits share one round trip; alone, a commit pays just one. Several
 * round trips are kept in flight, because a region server works through one request's regions one after the other,
 * with a WAL sync each, while concurrent requests share syncs (see {@link ParallelCommitWriter}).
 *
 * <p>Records queue in lanes: record i goes to lane {@code partition(i) mod lanes} ({@link CommitTable#partition}), so
 * a batch touches at most {@code ceil(partitions / lanes)} regions and pays that many syncs, not one per region of the
 * whole table. A lane has at most one batch in flight.
 *
 * <p>No thread of the writer's own waits for a round trip: the thread that queues a record sends its lane's batch
 * when a round trip is free, and the thread that completes a round trip (the {@link CommitBatchSender}'s) sends
 * whatever queued in the meantime. So a batch costs no hand-off between threads before it leaves.
 *
 * <p>A caller that waits for its outcome anyway ({@link #commit}) writes its own record on its own thread when nothing
 * is waiting and a round trip is free, as a lone commit would without group commit. Round trips of both kinds share
 * one limit, so records that arrive while every round trip is busy queue up and go together in the next batch:
 * batching starts exactly when commits pile up.
 */
public final class GroupCommitWriter implements AutoCloseable {

    private static final long CLOSE_WAIT_MILLIS = 10_000;

    private static final class Pending {
        final CommitRecord record;
        final CommitRecordDeadline deadline;
        final CompletableFuture<Boolean> result = new CompletableFuture<>();

        Pending(CommitRecord record, CommitRecordDeadline deadline) {
            this.record = record;
            this.deadline = deadline;
        }
    }

    /** One lane's queue, and whether its batch is in flight (the one thread that set it sends, then clears it). */
    private static final class Lane {
        final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<>();
        final AtomicBoolean sending = new AtomicBoolean();
    }

    private final CommitTable commitTable;
    private final CommitBatchSender batches;
    private final int maxBatch;
    private final IntConsumer batchSizes;
    private final List<Lane> lanes = new ArrayList<>();
    /** Round trips that may be in flight at once, batches and direct writes together. */
    private final Semaphore roundTrips;
    /** Records queued and not yet taken into a batch; while any wait, nobody writes directly. */
    private final AtomicInteger waiting = new AtomicInteger();
    private volatile boolean closed;

    /** {@link #GroupCommitWriter(CommitTable, CommitBatchSender, int, int, IntConsumer)} telling nobody batch sizes. */
    public GroupCommitWriter(CommitTable commitTable, CommitBatchSender batches, int maxBatch, int roundTrips) {
        this(commitTable, batches, maxBatch, roundTrips, size -> { });
    }

    /**
     * @param commitTable where a lone commit writes its own record, and whose partitions the lanes share out
     * @param batches sends each batch without blocking; its completions send the lane's next batch
     * @param roundTrips round trips in flight at once, and lanes
     * @param batchSizes told the number of records of each round trip (e.g. for a histogram); must not block
     */
    public GroupCommitWriter(CommitTable commitTable, CommitBatchSender batches, int maxBatch, int roundTrips,
            IntConsumer batchSizes) {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("group commit batch size must be positive, was " + maxBatch);
        }
        if (roundTrips < 1) {
            throw new IllegalArgumentException("group commit round trips must be positive, was " + roundTrips);
        }
        this.commitTable = Objects.requireNonNull(commitTable, "commitTable");
        this.batches = Objects.requireNonNull(batches, "batches");
        this.maxBatch = maxBatch;
        this.batchSizes = Objects.requireNonNull(batchSizes, "batchSizes");
        this.roundTrips = new Semaphore(roundTrips);
        for (int i = 0; i < roundTrips; i++) {
            lanes.add(new Lane());
        }
    }

    /** {@link #tryCommit(CommitRecord, CommitRecordDeadline)} without a deadline, for tools and tests. */
    public CompletableFuture<Boolean> tryCommit(CommitRecord record) {
        return tryCommit(record, CommitRecordDeadline.NONE);
    }

    /**
     * Completes with true when the record was written, false when a reader had invalidated the transaction, or
     * exceptionally with the {@link IOException} of the round trip (then the outcome is unknown until looked up). A
     * record still queued when its deadline passes is never sent: it fails with an {@link IOException} too. The
     * result may complete on the {@link CommitBatchSender}'s thread: what is chained on it must not block.
     */
    public CompletableFuture<Boolean> tryCommit(CommitRecord record, CommitRecordDeadline deadline) {
        Pending pending = new Pending(record, deadline);
        if (closed) {
            pending.result.completeExceptionally(new IOException("group commit writer is closed"));
            return pending.result;
        }
        waiting.incrementAndGet();
        Lane lane = lanes.get(Math.floorMod(commitTable.partition(record.startTimestamp()), lanes.size()));
        lane.queue.add(pending);
        pump(lane);
        return pending.result;
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
            } catch (RuntimeException e) {
                // As when the record goes in a batch: the outcome is unknown, which callers settle by lookup.
                throw Futures.failureOf(e, "the write of " + record);
            } finally {
                roundTrips.release();
                pumpAll();
            }
        }
        return Futures.await(tryCommit(record, deadline), "the write of " + record);
    }

    private void pumpAll() {
        for (Lane lane : lanes) {
            pump(lane);
        }
    }

    /**
     * Sends {@code lane}'s queued records as one batch if the lane has none in flight and a round trip is free. Whoever
     * frees a round trip or ends a lane's batch pumps again after, so a record never waits while a round trip is free:
     * a pump that finds no round trip clears the lane's flag first and then looks at the permits once more.
     */
    private void pump(Lane lane) {
        while (!lane.queue.isEmpty()) {
            if (!lane.sending.compareAndSet(false, true)) {
                return;
            }
            if (roundTrips.tryAcquire()) {
                if (send(lane)) {
                    return;
                }
                continue;
            }
            lane.sending.set(false);
            if (roundTrips.availablePermits() == 0) {
                return;
            }
        }
    }

    /**
     * Sends a batch of {@code lane}'s queue, holding the lane's flag and a round trip. False when nothing was left to
     * send (every record taken had passed its deadline): the flag and the round trip are given back, and the other
     * lanes pumped, as after any round trip.
     */
    private boolean send(Lane lane) {
        List<Pending> batch = new ArrayList<>(Math.min(maxBatch, 64));
        List<CommitRecord> records = new ArrayList<>();
        CommitRecordDeadline deadline = CommitRecordDeadline.NONE;
        Pending p;
        while (batch.size() < maxBatch && (p = lane.queue.poll()) != null) {
            waiting.decrementAndGet();
            try {
                p.deadline.checkWriteMayStart();
                batch.add(p);
                records.add(p.record);
                deadline = deadline.earlier(p.deadline);
            } catch (IOException late) {
                p.result.completeExceptionally(late);
            }
        }
        if (batch.isEmpty()) {
            roundTrips.release();
            lane.sending.set(false);
            pumpAll();
            return false;
        }
        batchSizes.accept(records.size());
        CompletableFuture<boolean[]> sent;
        try {
            sent = batches.send(records, deadline);
        } catch (RuntimeException e) {
            sent = CompletableFuture.failedFuture(e);
        }
        sent.whenComplete((won, failure) -> {
            roundTrips.release();
            lane.sending.set(false);
            for (int i = 0; i < batch.size(); i++) {
                if (failure == null) {
                    batch.get(i).result.complete(won[i]);
                } else {
                    batch.get(i).result.completeExceptionally(unwrap(failure));
                }
            }
            pumpAll();
        });
        return true;
    }

    private static Throwable unwrap(Throwable failure) {
        if (failure instanceof CompletionException && failure.getCause() != null) {
            return failure.getCause();
        }
        return failure;
    }

    /** Writes what is queued and waits (at most 10 s) for the round trips in flight, then refuses new records. */
    @Override
    public void close() {
        closed = true;
        pumpAll();
        long giveUp = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_WAIT_MILLIS);
        try {
            while (!idle() && System.nanoTime() < giveUp) {
                Thread.sleep(1);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Lane lane : lanes) {
            Pending p;
            while ((p = lane.queue.poll()) != null) {
                waiting.decrementAndGet();
                p.result.completeExceptionally(new IOException("group commit writer is closed"));
            }
        }
    }

    private boolean idle() {
        for (Lane lane : lanes) {
            if (lane.sending.get() || !lane.queue.isEmpty()) {
                return false;
            }
        }
        return true;
    }
}
