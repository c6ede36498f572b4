package io.tidemark.tso.processing;

import io.tidemark.certificate.DecisionKey;
import com.codahale.metrics.Timer;
import io.netty.channel.ChannelHandlerContext;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.ScheduledFuture;
import io.tidemark.certificate.Seal;
import io.tidemark.committable.CommitRecord;
import io.tidemark.committable.CommitRecordDeadline;
import io.tidemark.committable.CommitTable;
import io.tidemark.committable.ParallelCommitWriter;
import io.tidemark.protocol.AbortReason;
import io.tidemark.protocol.AbortedReply;
import io.tidemark.protocol.BeginReply;
import io.tidemark.protocol.CommittedReply;
import org.apache.hadoop.hbase.client.Durability;
import io.tidemark.tso.TsoMetrics;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Batched mode: the TSO writes commit records itself, in group commits, and replies once they are durable.
 *
 * <p>The event loop appends successful commits to the open batch. A batch is handed to the single writer thread when
 * it reaches {@code maxBatch} entries, or when {@code flushTimeoutMs} have passed since its first entry and the
 * writer is idle; while a batch is being written the next one keeps accumulating (group commit), so a slow commit
 * table yields bigger batches rather than a queue of small ones. The writer sends the batch as a few concurrent
 * multi put-if-absent requests ({@link ParallelCommitWriter}), then hands the outcome back to the event loop, which
 * replies COMMITTED or ABORTED(INVALIDATED).
 *
 * <p>Batches become durable in commit-timestamp order (one writer, FIFO). A BEGIN is answered only once every commit
 * that got its timestamp before the BEGIN is durable, so a snapshot never misses a commit that precedes it. A batch
 * whose write fails is therefore retried until it is durable, while later batches and the BEGINs wait: nothing is
 * ever answered as if durable when it is not. The writer checks that this TSO may still serve (its lease) before and
 * after each write; once it may not, it abandons the batch without replying (the TSO is stopping, and its clients
 * settle their commits through the commit table).
 *
 * <p>No commit record is written later than the commit-record timeout after the batch's first commit decision (the
 * batch's {@link CommitRecordDeadline}; HBase's timeouts of each attempt end there too): the commit-table sweeper's
 * proof that it may remove an invalidation marker rests on that bound (docs/coprocessors.md). A batch still not
 * durable at its deadline is settled the way a client settles an unknown outcome: each of its transactions is
 * invalidated, which decides it by content (a record an earlier attempt wrote stands and the commit is answered
 * COMMITTED; otherwise ABORTED(INVALIDATED)). Those invalidations are retried like the writes, so BEGINs still wait
 * until every commit before them is decided.
 */
public final class BatchedCompletion implements CommitCompletion {

    private static final Logger LOG = LoggerFactory.getLogger(BatchedCompletion.class);
    private static final long RETRY_BACKOFF_MS = 50;
    private static final long MAX_RETRY_BACKOFF_MS = 1000;
    private static final long CLOSE_WAIT_SECONDS = 10;

    private static final class Entry {
        final ChannelHandlerContext client;
        final long requestId;
        final CommitRecord record;
        final long receivedNanos;

        Entry(ChannelHandlerContext client, long requestId, CommitRecord record, long receivedNanos) {
            this.client = client;
            this.requestId = requestId;
            this.record = record;
            this.receivedNanos = receivedNanos;
        }
    }

    private static final class Batch {
        final List<Entry> entries;
        /** Taken at the batch's first (earliest) commit decision. */
        final CommitRecordDeadline deadline;
        @Nullable ScheduledFuture<?> flushTimer;
        /** The flush timeout passed while the writer was busy: submit as soon as it is free. */
        boolean due;
        long lastCommitTimestamp;

        Batch(int capacity, CommitRecordDeadline deadline) {
            this.entries = new ArrayList<>(capacity);
            this.deadline = deadline;
        }
    }

    private static final class WaitingBegin {
        final ChannelHandlerContext client;
        final long requestId;
        final long startTimestamp;
        final long commitToken;
        final long mustBeDurable;
        final long receivedNanos;

        WaitingBegin(ChannelHandlerContext client, long requestId, long startTimestamp, long commitToken,
                     long mustBeDurable, long receivedNanos) {
            this.client = client;
            this.requestId = requestId;
            this.startTimestamp = startTimestamp;
            this.commitToken = commitToken;
            this.mustBeDurable = mustBeDurable;
            this.receivedNanos = receivedNanos;
        }
    }


    private final EventExecutor loop;
    private final CommitTable commitTable;
    /** Seals every record it writes and every COMMITTED it sends. */
    private final DecisionKey key;
    private final ParallelCommitWriter recordWriter;
    private final int maxBatch;
    private final long flushTimeoutMs;
    private final long commitRecordTimeoutMs;
    private final TsoMetrics metrics;
    private final ExecutorService writer;
    private final BooleanSupplier mayServe;

    // Event-loop state.
    private @Nullable Batch open;
    private int batchesInWriter;
    private long lastAssignedCommit;
    private long durableUpTo;
    private final ArrayDeque<WaitingBegin> waitingBegins = new ArrayDeque<>();
    private final Set<ChannelHandlerContext> toFlush = Collections.newSetFromMap(new IdentityHashMap<>());

    /**
     * @param commitRecordTimeoutMs how long after a batch's first commit decision its records may still be written
     *     ({@code tidemark.client.commit-record-timeout-ms})
     * @param mayServe whether this TSO may still serve (holds its lease); asked before and after each write
     */
    public BatchedCompletion(EventExecutor loop, CommitTable commitTable, int writeParallelism, int maxBatch,
                             long flushTimeoutMs, long commitRecordTimeoutMs, TsoMetrics metrics,
                             BooleanSupplier mayServe, DecisionKey key) {
        this.loop = loop;
        this.key = key;
        this.mayServe = mayServe;
        this.commitTable = commitTable;
        this.recordWriter = new ParallelCommitWriter(commitTable, writeParallelism);
        this.maxBatch = maxBatch;
        this.flushTimeoutMs = flushTimeoutMs;
        this.commitRecordTimeoutMs = commitRecordTimeoutMs;
        this.metrics = metrics;
        metrics.registerBatchedMode();
        this.writer = Executors.newSingleThreadExecutor(runnable -> {
            Thread t = new Thread(runnable, "tidemark-tso-commit-writer");
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public void begun(ChannelHandlerContext client, long requestId, long startTimestamp, long commitToken,
                      long receivedNanos) {
        if (lastAssignedCommit <= durableUpTo) {
            client.write(new BeginReply(requestId, startTimestamp, commitToken), client.voidPromise());
            metrics.beginAnswered(receivedNanos);
        } else {
            waitingBegins.add(new WaitingBegin(client, requestId, startTimestamp, commitToken, lastAssignedCommit,
                    receivedNanos));
        }
    }

    @Override
    public void committed(ChannelHandlerContext client, long requestId, long startTimestamp, long commitTimestamp,
                          long receivedNanos) {
        Batch batch = open;
        if (batch == null) {
            batch = new Batch(maxBatch, CommitRecordDeadline.afterMillis(commitRecordTimeoutMs));
            open = batch;
            Batch timed = batch;
            batch.flushTimer = loop.schedule(() -> flushTimeoutPassed(timed), flushTimeoutMs, TimeUnit.MILLISECONDS);
        }
        batch.entries.add(new Entry(client, requestId, new CommitRecord(startTimestamp, commitTimestamp,
                Durability.USE_DEFAULT, key.commitCertificate(startTimestamp, commitTimestamp),
                key.releaseToken(startTimestamp)), receivedNanos));
        batch.lastCommitTimestamp = commitTimestamp;
        lastAssignedCommit = commitTimestamp;
        if (batch.entries.size() >= maxBatch) {
            submit(batch);
        }
    }

    private void flushTimeoutPassed(Batch batch) {
        if (open != batch) {
            return;
        }
        if (batchesInWriter == 0) {
            submit(batch);
        } else {
            batch.due = true;
        }
    }

    private void submit(Batch batch) {
        open = null;
        if (batch.flushTimer != null) { // set when the batch opened
            batch.flushTimer.cancel(false);
        }
        batchesInWriter++;
        metrics.batchSize().update(batch.entries.size());
        try {
            writer.execute(() -> {
                boolean[] won = write(batch);
                if (won == null) {
                    return;
                }
                try {
                    loop.execute(() -> finish(batch, won));
                } catch (RejectedExecutionException stopped) {
                    // The server stopped and its connections are gone: clients look their commits up.
                }
            });
        } catch (RejectedExecutionException closing) {
            // Closing: the batch is never answered; its clients settle their commits through the commit table.
            batchesInWriter--;
        }
    }

    /**
     * Runs on the writer thread: writes the batch until it is durable, or, past its deadline, invalidates what is not.
     * Returns per entry whether its record won (false: the transaction was invalidated), or null when the TSO may no
     * longer serve.
     */
    private boolean @Nullable [] write(Batch batch) {
        List<CommitRecord> records = new ArrayList<>(batch.entries.size());
        for (Entry e : batch.entries) {
            records.add(e.record);
        }
        long backoff = RETRY_BACKOFF_MS;
        for (int attempt = 1; ; attempt++) {
            if (!mayServe.getAsBoolean()) {
                return null;
            }
            try (Timer.Context ignored = metrics.commitTableWrite().time()) {
                // A retry that finds a record an earlier attempt wrote counts it as won: the commit table decides
                // by content (CommitTable#tryCommit).
                boolean[] won = batch.deadline.hasPassed() ? invalidateUnwritten(records)
                        : recordWriter.tryCommitAll(records, batch.deadline);
                if (attempt > 1) {
                    LOG.info("Wrote {} commit records at attempt {}", records.size(), attempt);
                }
                return mayServe.getAsBoolean() ? won : null;
            } catch (IOException | RuntimeException e) {
                metrics.commitTableFailures().inc();
                metrics.error("writing " + records.size() + " commit records failed (attempt " + attempt
                        + ", retrying): " + e);
                LOG.warn("Writing {} commit records failed (attempt {}; retrying while BEGINs wait): {}",
                        records.size(), attempt, e.toString());
                if (!sleep(backoff)) {
                    return null;
                }
                backoff = Math.min(MAX_RETRY_BACKOFF_MS, backoff * 2);
            }
        }
    }

    /**
     * Settles records whose deadline passed before they were known to be durable, by invalidating each transaction:
     * a record an earlier attempt wrote stands (decided by content), every other transaction can never commit.
     */
    private boolean[] invalidateUnwritten(List<CommitRecord> records) throws IOException {
        boolean[] won = new boolean[records.size()];
        for (int i = 0; i < won.length; i++) {
            CommitRecord record = records.get(i);
            won[i] = record.isRecordedAs(commitTable.invalidate(record.startTimestamp()));
        }
        LOG.warn("{} commit records were not durable within the commit-record timeout; {} of them had been written,"
                + " the others are invalidated", records.size(), countTrue(won));
        return won;
    }

    private static int countTrue(boolean[] values) {
        int n = 0;
        for (boolean v : values) {
            if (v) {
                n++;
            }
        }
        return n;
    }

    private static boolean sleep(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Runs on the event loop: replies for the durable batch, then the BEGINs that waited for it. */
    private void finish(Batch batch, boolean[] won) {
        batchesInWriter--;
        for (int i = 0; i < batch.entries.size(); i++) {
            Entry e = batch.entries.get(i);
            long start = e.record.startTimestamp();
            if (won[i]) {
                metrics.commits().inc();
                // committed() sealed every record with this incarnation's key
                Seal certificate = Objects.requireNonNull(e.record.certificate());
                Seal releaseToken = Objects.requireNonNull(e.record.releaseToken());
                e.client.write(new CommittedReply(e.requestId, start, e.record.commitTimestamp(), certificate,
                        releaseToken), e.client.voidPromise());
            } else {
                metrics.aborts(AbortReason.INVALIDATED).inc();
                e.client.write(new AbortedReply(e.requestId, start, AbortReason.INVALIDATED),
                        e.client.voidPromise());
            }
            metrics.commitAnswered(e.receivedNanos);
            toFlush.add(e.client);
        }
        durableUpTo = Math.max(durableUpTo, batch.lastCommitTimestamp);
        while (!waitingBegins.isEmpty() && waitingBegins.peek().mustBeDurable <= durableUpTo) {
            WaitingBegin b = waitingBegins.poll();
            b.client.write(new BeginReply(b.requestId, b.startTimestamp, b.commitToken), b.client.voidPromise());
            metrics.beginAnswered(b.receivedNanos);
            toFlush.add(b.client);
        }
        for (ChannelHandlerContext client : toFlush) {
            client.flush();
        }
        toFlush.clear();
        if (open != null && open.due && batchesInWriter == 0) {
            submit(open);
        }
    }

    /** Writes the batches already handed to the writer, then stops it; call after the event loop stopped reading. */
    @Override
    public void close() {
        writer.shutdown();
        try {
            if (!writer.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
                writer.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            writer.shutdownNow();
        }
        recordWriter.close();
    }
}
