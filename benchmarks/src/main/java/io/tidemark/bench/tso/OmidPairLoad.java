package io.tidemark.bench.tso;

import org.apache.omid.committable.CommitTable;
import org.apache.omid.tso.client.AbortException;
import org.apache.omid.tso.client.CellId;
import org.apache.omid.tso.client.TSOClient;
import org.apache.omid.tso.client.TSOFuture;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link PairLoad}'s twin for Apache Omid's TSO: BEGIN + COMMIT pairs over one Omid {@link TSOClient}, each committing
 * two random cell ids; with a commit-table writer, each commit then writes its record as Omid's low-latency client
 * does after COMMIT ({@code atomicAddCommittedTransaction}, one check-and-mutate), blocking a thread of
 * {@code recordThreads} as an application thread would be.
 */
final class OmidPairLoad implements WindowedLoad {

    /** The table id Omid's TSO sees for the random cells (it only fences tables, which this load never asks for). */
    private static final long TABLE_ID = 1;
    private static final Executor IN_CALLBACK = Runnable::run;
    /** After a failed pair, wait before the next one so that a dead TSO does not turn into a busy loop. */
    private static final Executor AFTER_FAILURE = CompletableFuture.delayedExecutor(10, TimeUnit.MILLISECONDS);

    private final TSOClient client;
    /** Null for the TSO alone. */
    private final CommitTable.Writer records;
    private final Executor recordThreads;
    private final PairLoad.Stats stats;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong inFlight = new AtomicLong();
    private final AtomicLong completed = new AtomicLong();

    /** @param records the commit table to write each commit's record to, or null for none */
    OmidPairLoad(TSOClient client, CommitTable.Writer records, Executor recordThreads, PairLoad.Stats stats) {
        this.client = client;
        this.records = records;
        this.recordThreads = recordThreads;
        this.stats = stats;
    }

    /** Closed loop: keeps {@code window} pairs outstanding until {@link #stop()}. */
    void startWindow(int window) {
        for (int i = 0; i < window; i++) {
            inFlight.incrementAndGet();
            sendPair();
        }
    }

    @Override
    public void stop() {
        running.set(false);
    }

    @Override
    public long inFlight() {
        return inFlight.get();
    }

    @Override
    public long completed() {
        return completed.get();
    }

    private void sendPair() {
        long beginSent = System.nanoTime();
        TSOFuture<Long> begin;
        try {
            begin = client.getNewStartTimestamp();
        } catch (RuntimeException e) {
            failed(e);
            return;
        }
        begin.addListener(() -> {
            try {
                long start = begin.get();
                long commitSent = System.nanoTime();
                stats.beginMicros.recordValue(micros(commitSent - beginSent));
                ThreadLocalRandom random = ThreadLocalRandom.current();
                TSOFuture<Long> commit = client.commit(start, Set.of(cell(random.nextLong()),
                        cell(random.nextLong())));
                commit.addListener(() -> afterCommit(start, commit, commitSent), IN_CALLBACK);
            } catch (InterruptedException | ExecutionException | RuntimeException e) {
                failed(e);
            }
        }, IN_CALLBACK);
    }

    private void afterCommit(long start, TSOFuture<Long> commit, long commitSent) {
        long commitTimestamp;
        try {
            commitTimestamp = commit.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof AbortException) {
                stats.aborts.increment();
                next();
            } else {
                failed(e);
            }
            return;
        } catch (InterruptedException | RuntimeException e) {
            failed(e);
            return;
        }
        if (records == null) {
            committed(commitSent);
            return;
        }
        recordThreads.execute(() -> {
            try {
                if (records.atomicAddCommittedTransaction(start, commitTimestamp)) {
                    committed(commitSent);
                } else {
                    stats.aborts.increment();
                    next();
                }
            } catch (Exception e) {
                failed(e);
            }
        });
    }

    private void committed(long commitSent) {
        stats.commitMicros.recordValue(micros(System.nanoTime() - commitSent));
        completed.incrementAndGet();
        next();
    }

    private void failed(Exception e) {
        stats.errors.increment();
        if (stats.firstError == null) {
            stats.firstError = String.valueOf(e.getCause() != null ? e.getCause() : e);
        }
        if (running.get()) {
            AFTER_FAILURE.execute(this::sendPair);
        } else {
            inFlight.decrementAndGet();
        }
    }

    /** After a pair that committed or aborted. */
    private void next() {
        if (running.get()) {
            sendPair();
        } else {
            inFlight.decrementAndGet();
        }
    }

    private static CellId cell(long id) {
        return new CellId() {
            @Override
            public long getCellId() {
                return id;
            }

            @Override
            public long getTableId() {
                return TABLE_ID;
            }

            @Override
            public long getRowId() {
                return id;
            }
        };
    }

    private static long micros(long nanos) {
        return Math.max(1, nanos / 1000);
    }
}
