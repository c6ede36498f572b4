package io.tidemark.client;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AsyncPostCommitsTest {

    @Test
    void postCommitRunsOnAPostCommitThread() throws Exception {
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        try (AsyncPostCommits<String> postCommits = new AsyncPostCommits<>(batch -> {
            ranOn.set(Thread.currentThread());
            done.countDown();
        }, 1, 1, 64)) {
            postCommits.submit("a");
            assertTrue(done.await(10, TimeUnit.SECONDS));
        }
        assertNotEquals(Thread.currentThread(), ranOn.get());
        assertTrue(ranOn.get().getName().startsWith("tidemark-post-commit-"), ranOn.get().getName());
    }

    @Test
    void postCommitsThatWaitedForTheThreadRunAsOneBatch() throws Exception {
        BlockingFirstBatch firstBlocks = new BlockingFirstBatch();
        try (AsyncPostCommits<String> postCommits = new AsyncPostCommits<>(firstBlocks, 1, 16, 64)) {
            postCommits.submit("a");
            firstBlocks.awaitBusy();
            postCommits.submit("b");
            postCommits.submit("c");
            firstBlocks.release();
        }
        assertEquals(List.of(List.of("a"), List.of("b", "c")), firstBlocks.batches);
    }

    @Test
    void aBatchHoldsAtMostTheLimit() throws Exception {
        BlockingFirstBatch firstBlocks = new BlockingFirstBatch();
        try (AsyncPostCommits<String> postCommits = new AsyncPostCommits<>(firstBlocks, 1, 16, 2)) {
            postCommits.submit("a");
            firstBlocks.awaitBusy();
            postCommits.submit("b");
            postCommits.submit("c");
            postCommits.submit("d");
            firstBlocks.release();
        }
        assertEquals(List.of(List.of("a"), List.of("b", "c"), List.of("d")), firstBlocks.batches);
    }

    @Test
    void aFullBacklogMakesTheCommitterRunItsOwnPostCommit() throws Exception {
        BlockingFirstBatch firstBlocks = new BlockingFirstBatch();
        try (AsyncPostCommits<String> postCommits = new AsyncPostCommits<>(firstBlocks, 1, 1, 64)) {
            postCommits.submit("a");
            firstBlocks.awaitBusy();
            postCommits.submit("b");                                  // waits: the backlog is now full

            postCommits.submit("c");

            assertEquals(List.of(List.of("c")), firstBlocks.batchesRunOn(Thread.currentThread()),
                    "ran before submit returned, on the committer");
            firstBlocks.release();
        }
        assertEquals(List.of(List.of("a"), List.of("c"), List.of("b")), firstBlocks.batches);
    }

    @Test
    void closeRunsThePostCommitsStillWaiting() throws Exception {
        BlockingFirstBatch firstBlocks = new BlockingFirstBatch();
        AsyncPostCommits<String> postCommits = new AsyncPostCommits<>(firstBlocks, 1, 16, 64);
        postCommits.submit("a");
        firstBlocks.awaitBusy();
        postCommits.submit("b");
        Thread releaser = new Thread(() -> {
            sleepQuietly(200);
            firstBlocks.release();
        });
        releaser.start();

        postCommits.close();

        assertEquals(List.of(List.of("a"), List.of("b")), firstBlocks.batches, "close waited for both");
        releaser.join();
    }

    @Test
    void afterCloseTheCommitterRunsItsOwnPostCommit() {
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        AsyncPostCommits<String> postCommits = new AsyncPostCommits<>(batch -> ranOn.set(Thread.currentThread()),
                1, 1, 64);
        postCommits.close();

        postCommits.submit("a");

        assertEquals(Thread.currentThread(), ranOn.get(), "nothing is dropped once the threads are gone");
    }

    /** Records every batch (a copy, with the thread it ran on); the first one waits until {@link #release}. */
    private static final class BlockingFirstBatch implements Consumer<List<String>> {
        final List<List<String>> batches = new CopyOnWriteArrayList<>();
        private final List<Thread> threads = new CopyOnWriteArrayList<>();
        private final CountDownLatch busy = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);

        @Override
        public void accept(List<String> batch) {
            batches.add(List.copyOf(batch));
            threads.add(Thread.currentThread());
            if (busy.getCount() > 0) {
                busy.countDown();
                awaitQuietly(released);
            }
        }

        void awaitBusy() throws InterruptedException {
            assertTrue(busy.await(10, TimeUnit.SECONDS), "the one thread is busy");
        }

        void release() {
            released.countDown();
        }

        List<List<String>> batchesRunOn(Thread thread) {
            List<List<String>> ran = new CopyOnWriteArrayList<>();
            for (int i = 0; i < batches.size(); i++) {
                if (threads.get(i) == thread) {
                    ran.add(batches.get(i));
                }
            }
            return ran;
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
