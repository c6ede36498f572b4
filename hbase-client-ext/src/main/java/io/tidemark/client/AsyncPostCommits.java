package io.tidemark.client;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs post-commits (shadow cells, then the commit record's removal) off the committing thread, for
 * {@link PostCommitMode#ASYNC}. The backlog is bounded: when {@link #MAX_WAITING} post-commits already wait, the
 * committing thread runs its own, so a client that commits faster than its post-commits finish slows down instead
 * of piling up memory and commit records. After {@link #close}, post-commits run on the committing thread too.
 *
 * <p>The non-blocking API's post-commits need no thread: they run on HBase's. They are only followed here
 * ({@link #follow}), so that closing waits for them too.
 */
final class AsyncPostCommits implements AutoCloseable {

    /** Post-commits that may wait for a thread (docs/configuration.md, {@code tidemark.client.post-commit}). */
    static final int MAX_WAITING = 1024;
    private static final int THREADS = 2;
    private static final long DRAIN_SECONDS = 30;
    private static final Logger LOG = LoggerFactory.getLogger(AsyncPostCommits.class);

    private final ThreadPoolExecutor executor;
    private final Set<CompletableFuture<Void>> following = ConcurrentHashMap.newKeySet();

    AsyncPostCommits() {
        this(THREADS, MAX_WAITING);
    }

    /** For tests: {@code threads} threads, at most {@code maxWaiting} post-commits waiting for one. */
    AsyncPostCommits(int threads, int maxWaiting) {
        AtomicInteger count = new AtomicInteger();
        this.executor = new ThreadPoolExecutor(threads, threads, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(maxWaiting), r -> {
                    Thread t = new Thread(r, "tidemark-post-commit-" + count.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                },
                // Refused because the backlog is full or the manager is closing: the committer does the work.
                (postCommit, pool) -> postCommit.run());
    }

    void submit(Runnable postCommit) {
        executor.execute(postCommit);
    }

    /** A post-commit running on HBase's threads, waited for by {@link #close} until it ends. */
    void follow(CompletableFuture<Void> postCommit) {
        following.add(postCommit);
        postCommit.whenComplete((done, failed) -> following.remove(postCommit));
    }

    /**
     * Waits up to 30 s in all for the waiting and the followed post-commits; those still running then are left to
     * readers and the sweeper.
     */
    @Override
    public void close() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DRAIN_SECONDS);
        executor.shutdown();
        try {
            boolean drained = executor.awaitTermination(DRAIN_SECONDS, TimeUnit.SECONDS);
            CompletableFuture.allOf(following.toArray(new CompletableFuture<?>[0]))
                    .get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            if (!drained) {
                warnLeftRunning();
            }
        } catch (TimeoutException e) {
            warnLeftRunning();
        } catch (ExecutionException neverFails) {
            // A post-commit's future completes normally: it logs its own failures.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void warnLeftRunning() {
        LOG.warn("post-commits still running after {} s; their commit records stay in the commit table"
                + " and readers resolve them there", DRAIN_SECONDS);
    }
}
