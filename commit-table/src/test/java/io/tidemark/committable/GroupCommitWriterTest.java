package io.tidemark.committable;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * When {@link GroupCommitWriter#commit} writes on the caller's thread and when records wait for a batch: a lone commit
 * pays no hand-off, records arriving while every round trip is busy go together in the next one, and a batch leaves
 * from a thread that is there anyway (the one queuing it, or the one completing the previous round trip).
 */
class GroupCommitWriterTest {

    /** Runs the blocking batches; its threads are daemons and end when idle. */
    private static final ExecutorService SENDERS = Executors.newCachedThreadPool(runnable -> {
        Thread t = new Thread(runnable, "test-batch-sender");
        t.setDaemon(true);
        return t;
    });


    private final RecordingTable table = new RecordingTable();

    @Test
    void aLoneCommitWritesItsRecordWithoutAHandOff() throws Exception {
        try (GroupCommitWriter writer = new GroupCommitWriter(table, blockingBatches(), 64, 1)) {
            assertTrue(writer.commit(new CommitRecord(10, 20), CommitRecordDeadline.NONE));
            assertTrue(writer.commit(new CommitRecord(30, 40), CommitRecordDeadline.NONE));
        }
        assertEquals(List.of(Thread.currentThread().getName(), Thread.currentThread().getName()), table.writerThreads);
        assertEquals(List.of(1, 1), table.batchSizes);
        assertTrue(table.lookup(10).isCommitted());
        assertTrue(table.lookup(30).isCommitted());
    }

    @Test
    void aLoneCommitOverAnInvalidationLoses() throws Exception {
        table.invalidate(10);
        try (GroupCommitWriter writer = new GroupCommitWriter(table, blockingBatches(), 64, 1)) {
            assertFalse(writer.commit(new CommitRecord(10, 20), CommitRecordDeadline.NONE));
        }
        assertTrue(table.lookup(10).isInvalidated());
    }

    @Test
    void recordsQueuedBehindABatchGoInTheNextBatch() throws Exception {
        table.holdRecord = 10;
        try (GroupCommitWriter writer = new GroupCommitWriter(table, blockingBatches(), 64, 1)) {
            CompletableFuture<Boolean> lone = CompletableFuture.supplyAsync(() -> commit(writer, 10, 20));
            table.entered.await(10, TimeUnit.SECONDS);
            List<CompletableFuture<Boolean>> queued = List.of(writer.tryCommit(new CommitRecord(30, 40)),
                    writer.tryCommit(new CommitRecord(50, 60)), writer.tryCommit(new CommitRecord(70, 80)));
            table.release.countDown();
            assertTrue(lone.get(10, TimeUnit.SECONDS));
            for (CompletableFuture<Boolean> r : queued) {
                assertTrue(r.get(10, TimeUnit.SECONDS));
            }
        }
        assertEquals(List.of(1, 3), table.batchSizes);
    }

    @Test
    void aCommitBehindQueuedRecordsWaitsForABatchInsteadOfOvertakingThem() throws Exception {
        table.holdRecord = 10;
        try (GroupCommitWriter writer = new GroupCommitWriter(table, blockingBatches(), 64, 1)) {
            CompletableFuture<Boolean> held = writer.tryCommit(new CommitRecord(10, 20));
            table.entered.await(10, TimeUnit.SECONDS);
            CompletableFuture<Boolean> queued = writer.tryCommit(new CommitRecord(30, 40));
            AtomicReference<Boolean> late = new AtomicReference<>();
            Thread committer = new Thread(() -> late.set(commit(writer, 50, 60)), "late-committer");
            committer.start();
            awaitWaiting(committer);
            table.release.countDown();
            committer.join(10_000);
            assertTrue(held.get(10, TimeUnit.SECONDS));
            assertTrue(queued.get(10, TimeUnit.SECONDS));
            assertEquals(Boolean.TRUE, late.get());
        }
        assertFalse(table.writerThreads.contains("late-committer"), "written by " + table.writerThreads);
        assertEquals(List.of(1, 2), table.batchSizes);
    }

    @Test
    void eachBatchHoldsOnlyTheRecordsOfItsWritersPartitions() throws Exception {
        table.partitions = 4;
        List<CompletableFuture<Boolean>> results = new ArrayList<>();
        try (GroupCommitWriter writer = new GroupCommitWriter(table, blockingBatches(), 64, 2)) {
            for (long start = 1; start <= 200; start++) {
                results.add(writer.tryCommit(new CommitRecord(start, start + 1000)));
            }
            for (CompletableFuture<Boolean> r : results) {
                assertTrue(r.get(10, TimeUnit.SECONDS));
            }
        }
        for (List<Long> batch : table.batches) {
            long lane = table.partition(batch.get(0)) % 2;
            for (long start : batch) {
                assertEquals(lane, table.partition(start) % 2, "batch " + batch + " mixes the writers' partitions");
            }
        }
    }

    @Test
    void aClosedWriterRefusesACommitOnTheCallersThread() throws Exception {
        GroupCommitWriter writer = new GroupCommitWriter(table, blockingBatches(), 64, 1);
        writer.close();
        assertThrows(IOException.class, () -> writer.commit(new CommitRecord(10, 20), CommitRecordDeadline.NONE));
        assertTrue(table.lookup(10).isAbsent());
    }

    @Test
    void aRuntimeFailureOfALoneCommitIsAnUnknownOutcomeAsInABatch() throws Exception {
        IllegalStateException bug = new IllegalStateException("a bug in the commit table");
        table.failWith = bug;
        try (GroupCommitWriter writer = new GroupCommitWriter(table, blockingBatches(), 64, 1)) {
            IOException unknown = assertThrows(IOException.class,
                    () -> writer.commit(new CommitRecord(10, 20), CommitRecordDeadline.NONE));
            assertSame(bug, unknown.getCause());
        }
    }

    @Test
    void aLoneCommitPastItsDeadlineIsNeverSent() throws Exception {
        CommitRecordDeadline passed = passedDeadline();
        try (GroupCommitWriter writer = new GroupCommitWriter(table, blockingBatches(), 64, 1)) {
            assertThrows(IOException.class, () -> writer.commit(new CommitRecord(10, 20), passed));
        }
        assertTrue(table.batchSizes.isEmpty());
        assertTrue(table.lookup(10).isAbsent());
    }

    @Test
    void aBatchLeavesFromTheThreadThatQueuesItOrThatCompletesThePreviousOne() throws Exception {
        ManualSender sender = new ManualSender();
        try (GroupCommitWriter writer = new GroupCommitWriter(table, sender, 64, 1)) {
            CompletableFuture<Boolean> first = writer.tryCommit(new CommitRecord(10, 20));
            CompletableFuture<Boolean> second = writer.tryCommit(new CommitRecord(30, 40));
            CompletableFuture<Boolean> third = writer.tryCommit(new CommitRecord(50, 60));
            assertEquals(List.of(List.of(10L)), sender.sent, "one round trip in flight, the others queue");
            Thread completer = new Thread(() -> sender.complete(0, new boolean[] {true}), "completer");
            completer.start();
            completer.join(10_000);
            assertTrue(first.get(10, TimeUnit.SECONDS));
            assertEquals(List.of(List.of(10L), List.of(30L, 50L)), sender.sent);
            assertEquals(List.of(Thread.currentThread().getName(), "completer"), sender.senderThreads);
            sender.complete(1, new boolean[] {true, false});
            assertTrue(second.get(10, TimeUnit.SECONDS));
            assertFalse(third.get(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void aFailedBatchFailsEachOfItsRecordsAndTheNextBatchStillLeaves() throws Exception {
        ManualSender sender = new ManualSender();
        try (GroupCommitWriter writer = new GroupCommitWriter(table, sender, 64, 1)) {
            CompletableFuture<Boolean> failed = writer.tryCommit(new CommitRecord(10, 20));
            CompletableFuture<Boolean> next = writer.tryCommit(new CommitRecord(30, 40));
            sender.results.get(0).completeExceptionally(new IOException("region server gone"));
            ExecutionException unknown = assertThrows(ExecutionException.class, () -> failed.get(10, TimeUnit.SECONDS));
            assertEquals("region server gone", unknown.getCause().getMessage());
            sender.complete(1, new boolean[] {true});
            assertTrue(next.get(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void aQueuedRecordPastItsDeadlineIsNeverSentAndTheOthersStillAre() throws Exception {
        CommitRecordDeadline passed = passedDeadline();
        ManualSender sender = new ManualSender();
        try (GroupCommitWriter writer = new GroupCommitWriter(table, sender, 64, 1)) {
            CompletableFuture<Boolean> first = writer.tryCommit(new CommitRecord(10, 20));
            CompletableFuture<Boolean> late = writer.tryCommit(new CommitRecord(30, 40), passed);
            CompletableFuture<Boolean> onTime = writer.tryCommit(new CommitRecord(50, 60));
            sender.complete(0, new boolean[] {true});
            assertTrue(first.get(10, TimeUnit.SECONDS));
            ExecutionException refused = assertThrows(ExecutionException.class, () -> late.get(10, TimeUnit.SECONDS));
            assertTrue(refused.getCause() instanceof IOException, "refused with " + refused.getCause());
            assertEquals(List.of(List.of(10L), List.of(50L)), sender.sent, "the late record was never sent");
            sender.complete(1, new boolean[] {true});
            assertTrue(onTime.get(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void closeWaitsForTheBatchInFlight() throws Exception {
        ManualSender sender = new ManualSender();
        GroupCommitWriter writer = new GroupCommitWriter(table, sender, 64, 1);
        CompletableFuture<Boolean> inFlight = writer.tryCommit(new CommitRecord(10, 20));
        Thread completer = new Thread(() -> {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            sender.complete(0, new boolean[] {true});
        });
        completer.start();
        writer.close();
        assertTrue(inFlight.isDone(), "close returned before the round trip in flight ended");
        assertTrue(inFlight.get());
        completer.join(10_000);
    }

    private static CommitRecordDeadline passedDeadline() {
        CommitRecordDeadline passed = CommitRecordDeadline.afterMillis(1);
        while (!passed.hasPassed()) {
            Thread.onSpinWait();
        }
        return passed;
    }

    private static Boolean commit(GroupCommitWriter writer, long start, long commit) {
        try {
            return writer.commit(new CommitRecord(start, commit), CommitRecordDeadline.NONE);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Waits until {@code thread} blocks (on its record's outcome, since nothing else in it blocks). */
    private static void awaitWaiting(Thread thread) throws InterruptedException {
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (thread.getState() != Thread.State.WAITING && System.nanoTime() < giveUp) {
            Thread.sleep(1);
        }
        assertEquals(Thread.State.WAITING, thread.getState());
    }

    /** A sender whose round trips end when the test completes them, recording each batch and the thread sending it. */
    private static final class ManualSender implements CommitBatchSender {
        final List<List<Long>> sent = new CopyOnWriteArrayList<>();
        final List<String> senderThreads = new CopyOnWriteArrayList<>();
        final List<CompletableFuture<boolean[]>> results = new CopyOnWriteArrayList<>();

        @Override
        public CompletableFuture<boolean[]> send(List<CommitRecord> records, CommitRecordDeadline deadline) {
            List<Long> starts = new ArrayList<>();
            records.forEach(r -> starts.add(r.startTimestamp()));
            sent.add(starts);
            senderThreads.add(Thread.currentThread().getName());
            CompletableFuture<boolean[]> result = new CompletableFuture<>();
            results.add(result);
            return result;
        }

        void complete(int batch, boolean[] won) {
            results.get(batch).complete(won);
        }
    }

    /** An in-memory table that records who wrote each round trip and can hold one round trip until released. */
    private static final class RecordingTable implements CommitTable {
        final InMemoryCommitTable delegate = new InMemoryCommitTable();
        final List<String> writerThreads = new CopyOnWriteArrayList<>();
        final List<Integer> batchSizes = new CopyOnWriteArrayList<>();
        /** The start timestamps of each round trip. */
        final List<List<Long>> batches = new CopyOnWriteArrayList<>();
        /** Start timestamp modulo this is the partition. */
        volatile int partitions = 1;
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        /** The start timestamp whose round trip waits for {@link #release}, if any. */
        volatile long holdRecord = -1;
        /** What every round trip fails with, if anything. */
        volatile RuntimeException failWith;

        @Override
        public int partition(long startTimestamp) {
            return (int) (startTimestamp % partitions);
        }

        @Override
        public CommitState lookup(long startTimestamp) throws IOException {
            return delegate.lookup(startTimestamp);
        }

        @Override
        public boolean tryCommit(CommitRecord record, CommitRecordDeadline deadline) throws IOException {
            return tryCommitAll(List.of(record), deadline)[0];
        }

        @Override
        public boolean[] tryCommitAll(List<CommitRecord> records, CommitRecordDeadline deadline) throws IOException {
            writerThreads.add(Thread.currentThread().getName());
            batchSizes.add(records.size());
            List<Long> starts = new ArrayList<>();
            records.forEach(r -> starts.add(r.startTimestamp()));
            batches.add(starts);
            if (failWith != null) {
                throw failWith;
            }
            if (records.get(0).startTimestamp() == holdRecord) {
                entered.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException(e);
                }
            }
            return delegate.tryCommitAll(records, deadline);
        }

        @Override
        public CommitState invalidate(long startTimestamp) throws IOException {
            return delegate.invalidate(startTimestamp);
        }

        @Override
        public void undoInvalidation(long startTimestamp) throws IOException {
            delegate.undoInvalidation(startTimestamp);
        }

        @Override
        public void release(CommitRecord record) throws IOException {
            delegate.release(record);
        }

        @Override
        public void releaseAll(List<CommitRecord> records) throws IOException {
            delegate.releaseAll(records);
        }

        @Override
        public long readLowWatermark() throws IOException {
            return delegate.readLowWatermark();
        }

        @Override
        public void raiseLowWatermark(long lowWatermark) throws IOException {
            delegate.raiseLowWatermark(lowWatermark);
        }
    }

    private CommitBatchSender blockingBatches() {
        return CommitBatchSender.blockingOn(table, SENDERS);
    }
}
