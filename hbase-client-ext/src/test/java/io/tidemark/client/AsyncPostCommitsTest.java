package io.tidemark.client;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AsyncPostCommitsTest {

    @Test
    void postCommitRunsOnAPostCommitThread() throws Exception {
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        try (AsyncPostCommits postCommits = new AsyncPostCommits(1, 1)) {
            postCommits.submit(() -> {
                ranOn.set(Thread.currentThread());
                done.countDown();
            });
            assertTrue(done.await(10, TimeUnit.SECONDS));
        }
        assertNotEquals(Thread.currentThread(), ranOn.get());
        assertTrue(ranOn.get().getName().startsWith("tidemark-post-commit-"), ranOn.get().getName());
    }

    @Test
    void aFullBacklogMakesTheCommitterRunItsOwnPostCommit() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch busy = new CountDownLatch(1);
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        try (AsyncPostCommits postCommits = new AsyncPostCommits(1, 1)) {
            postCommits.submit(() -> {
                busy.countDown();
                awaitQuietly(release);
            });
            assertTrue(busy.await(10, TimeUnit.SECONDS), "the one thread is busy");
            postCommits.submit(() -> { });                            // waits: the backlog is now full

            postCommits.submit(() -> ranOn.set(Thread.currentThread()));

            assertEquals(Thread.currentThread(), ranOn.get(), "ran before submit returned, on the committer");
            release.countDown();
        }
    }

    @Test
    void afterCloseTheCommitterRunsItsOwnPostCommit() {
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        AsyncPostCommits postCommits = new AsyncPostCommits(1, 1);
        postCommits.close();

        postCommits.submit(() -> ranOn.set(Thread.currentThread()));

        assertEquals(Thread.currentThread(), ranOn.get(), "nothing is dropped once the threads are gone");
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
