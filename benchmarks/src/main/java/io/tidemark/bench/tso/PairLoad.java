package io.tidemark.bench.tso;

import io.tidemark.client.tso.TsoClient;
import io.tidemark.writeset.WriteSetIds;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.util.Bytes;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * BEGIN + COMMIT pairs sent by one benchmark client over its own TSO connection: each pair begins, then commits a
 * write set of two random 64-bit cell ids, then hands the commit to the {@link CommitRecordSink}. Latencies go into
 * recorders shared by all clients of a run.
 */
final class PairLoad implements WindowedLoad {

    private static final long[] TABLES = {WriteSetIds.table(Bytes.toBytes("tso-benchmark"))};
    /** After a failed pair, wait before the next one so that a dead TSO does not turn into a busy loop. */
    private static final Executor AFTER_FAILURE = CompletableFuture.delayedExecutor(10, TimeUnit.MILLISECONDS);

    /** Latency and outcome counters of all clients in one run. */
    static final class Stats {
        final Recorder beginMicros = new Recorder(3);
        final Recorder commitMicros = new Recorder(3);
        final LongAdder aborts = new LongAdder();
        final LongAdder errors = new LongAdder();
        volatile String firstError;

        /** Drops what was recorded so far (the warm-up). */
        void reset() {
            beginMicros.getIntervalHistogram();
            commitMicros.getIntervalHistogram();
            aborts.reset();
            errors.reset();
        }

        Histogram beginSinceReset() {
            return beginMicros.getIntervalHistogram();
        }

        Histogram commitSinceReset() {
            return commitMicros.getIntervalHistogram();
        }
    }

    private final TsoClient client;
    private final CommitRecordSink sink;
    private final Stats stats;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong inFlight = new AtomicLong();
    private final AtomicLong completed = new AtomicLong();

    PairLoad(TsoClient client, CommitRecordSink sink, Stats stats) {
        this.client = client;
        this.sink = sink;
        this.stats = stats;
    }

    /** Closed loop: keeps {@code window} pairs outstanding until {@link #stop()}. */
    void startWindow(int window) {
        for (int i = 0; i < window; i++) {
            inFlight.incrementAndGet();
            sendPair(true);
        }
    }

    /** Open loop: one pair now, not followed by another when it completes. */
    void sendOne() {
        if (running.get()) {
            inFlight.incrementAndGet();
            sendPair(false);
        }
    }

    @Override
    public long inFlight() {
        return inFlight.get();
    }

    @Override
    public long completed() {
        return completed.get();
    }

    @Override
    public void stop() {
        running.set(false);
    }

    boolean isRunning() {
        return running.get();
    }

    private void sendPair(boolean repeat) {
        long beginSent = System.nanoTime();
        client.begin().thenCompose(begun -> {
            long start = begun.startTimestamp();
            long commitSent = System.nanoTime();
            stats.beginMicros.recordValue(micros(commitSent - beginSent));
            ThreadLocalRandom random = ThreadLocalRandom.current();
            long[] writeSet = {random.nextLong(), random.nextLong()};
            return client.commit(start, begun.commitToken(), writeSet, TABLES).thenCompose(result -> {
                if (!result.isCommitted()) {
                    return CompletableFuture.completedFuture(false);
                }
                return sink.afterCommit(result.recordOf(start, Durability.USE_DEFAULT));
            }).thenApply(committed -> {
                if (committed) {
                    stats.commitMicros.recordValue(micros(System.nanoTime() - commitSent));
                } else {
                    stats.aborts.increment();
                }
                return committed;
            });
        }).whenComplete((committed, failure) -> {
            if (failure != null) {
                stats.errors.increment();
                if (stats.firstError == null) {
                    stats.firstError = String.valueOf(failure.getCause() != null ? failure.getCause() : failure);
                }
            } else if (committed) {
                completed.incrementAndGet();
            }
            if (repeat && running.get()) {
                if (failure == null) {
                    sendPair(true);
                } else {
                    AFTER_FAILURE.execute(() -> sendPair(true));
                }
            } else {
                inFlight.decrementAndGet();
            }
        });
    }

    private static long micros(long nanos) {
        return Math.max(1, nanos / 1000);
    }
}
