package io.tidemark.client;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;

/**
 * Runs post-commits (shadow cells, then the commit records' removal) off the committing thread, for
 * {@link PostCommitMode#ASYNC}, and runs the post-commits that waited for a thread together: a thread that becomes
 * free takes every waiting one (up to {@link #MAX_BATCH}) as one batch, so that under load their writes share
 * HBase round trips and WAL syncs. A lone post-commit never waits for company.
 *
 * <p>The backlog is bounded: when {@link #MAX_WAITING} post-commits already wait, the committing thread runs its own,
 * so a client that commits faster than its post-commits finish slows down instead of piling up memory and commit
 * records. After {@link #close}, post-commits run on the committing thread too.
 *
 * @param <T> what one post-commit is about (a committed transaction)
 */
final class AsyncPostCommits<T> implements AutoCloseable {

    /** Post-commits that may wait for a thread (docs/configuration.md, {@code tidemark.client.post-commit}). */
    static final int MAX_WAITING = 1024;
    /** Post-commits run together at most (docs/configuration.md, {@code tidemark.client.post-commit}). */
    static final int MAX_BATCH = 64;
    private static final int THREADS = 2;
    private static final long DRAIN_SECONDS = 30;
    /** How often an idle thread looks whether the manager closed. */
    private static final long IDLE_POLL_MILLIS = 100;
    private static final Logger LOG = LoggerFactory.getLogger(AsyncPostCommits.class);

    private final Consumer<List<T>> postCommit;
    private final BlockingQueue<T> waiting;
    private final int maxBatch;
    private final List<Thread> threads = new ArrayList<>();
    /** Read-held by submitters while they queue, write-held to close: nothing is queued after the threads stop. */
    private final ReadWriteLock closing = new ReentrantReadWriteLock();
    private volatile boolean closed;

    /** @param postCommit runs the post-commits of a batch; it handles its own failures */
    AsyncPostCommits(Consumer<List<T>> postCommit) {
        this(postCommit, THREADS, MAX_WAITING, MAX_BATCH);
    }

    /** For tests: {@code threads} threads, at most {@code maxWaiting} waiting and {@code maxBatch} per batch. */
    AsyncPostCommits(Consumer<List<T>> postCommit, int threadCount, int maxWaiting, int maxBatch) {
        this.postCommit = postCommit;
        this.waiting = new ArrayBlockingQueue<>(maxWaiting);
        this.maxBatch = maxBatch;
        for (int i = 1; i <= threadCount; i++) {
            Thread t = new Thread(this::runBatches, "tidemark-post-commit-" + i);
            t.setDaemon(true);
            threads.add(t);
        }
        threads.forEach(Thread::start);
    }

    void submit(T committed) {
        boolean queued;
        closing.readLock().lock();
        try {
            queued = !closed && waiting.offer(committed);
        } finally {
            closing.readLock().unlock();
        }
        if (!queued) {
            // The backlog is full or the manager is closing: the committer does the work.
            postCommit.accept(List.of(committed));
        }
    }

    private void runBatches() {
        List<T> batch = new ArrayList<>(maxBatch);
        try {
            while (true) {
                T first = waiting.poll(IDLE_POLL_MILLIS, TimeUnit.MILLISECONDS);
                if (first == null) {
                    if (closed && waiting.isEmpty()) {
                        return;
                    }
                    continue;
                }
                batch.add(first);
                waiting.drainTo(batch, maxBatch - 1);
                try {
                    postCommit.accept(batch);
                } catch (RuntimeException e) {
                    LOG.warn("a post-commit batch failed; its commit records stay for readers and the sweeper", e);
                }
                batch.clear();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits up to 30 s for the waiting post-commits; those still waiting then are left to readers and the sweeper. */
    @Override
    public void close() {
        closing.writeLock().lock();
        try {
            closed = true;
        } finally {
            closing.writeLock().unlock();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DRAIN_SECONDS);
        try {
            for (Thread t : threads) {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (threads.stream().anyMatch(Thread::isAlive)) {
            LOG.warn("post-commits still running after {} s; their commit records stay in the commit table"
                    + " and readers resolve them there", DRAIN_SECONDS);
            return;
        }
        // Only if a thread died of an Error: what it left waiting runs here.
        List<T> left = new ArrayList<>();
        waiting.drainTo(left);
        if (!left.isEmpty()) {
            postCommit.accept(left);
        }
    }
}
