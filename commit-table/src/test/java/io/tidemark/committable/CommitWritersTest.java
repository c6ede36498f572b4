package io.tidemark.committable;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The group-commit and parallel writers report failures of the commit table instead of guessing outcomes, and never
 * send a record after its deadline.
 */
class CommitWritersTest {

    /** Runs the blocking batches; its threads are daemons and end when idle. */
    private static final ExecutorService SENDERS = Executors.newCachedThreadPool(runnable -> {
        Thread t = new Thread(runnable, "test-batch-sender");
        t.setDaemon(true);
        return t;
    });


    private final InMemoryCommitTable table = new InMemoryCommitTable();

    @Test
    void aFailedRoundTripFailsEveryRecordOfIt() {
        table.failNext(1, InMemoryCommitTable.Fault.UNAVAILABLE);
        try (GroupCommitWriter writer = new GroupCommitWriter(table, blockingBatches(), 64, 1)) {
            CompletableFuture<Boolean> result = writer.tryCommit(new CommitRecord(10, 20));
            ExecutionException e = assertThrows(ExecutionException.class, result::get);
            assertInstanceOf(IOException.class, e.getCause());
        }
    }

    @Test
    void groupCommitWriterTellsTheSizeOfEachRoundTrip() throws Exception {
        List<Integer> sizes = new CopyOnWriteArrayList<>();
        try (GroupCommitWriter writer = new GroupCommitWriter(table, blockingBatches(), 64, 1, sizes::add)) {
            assertTrue(writer.tryCommit(new CommitRecord(10, 20)).get());
            assertTrue(writer.tryCommit(new CommitRecord(30, 40)).get());
        }
        assertEquals(List.of(1, 1), sizes, "one record per round trip when commits come one after the other");
    }

    @Test
    void aClosedGroupCommitWriterRefusesNewRecords() {
        GroupCommitWriter writer = new GroupCommitWriter(table, blockingBatches(), 64, 1);
        writer.close();
        assertThrows(ExecutionException.class, () -> writer.tryCommit(new CommitRecord(10, 20)).get());
    }

    @Test
    void aFailedChunkFailsTheWholeSplitBatch() {
        List<CommitRecord> records = records(64);
        table.failNext(1, InMemoryCommitTable.Fault.REPLY_LOST);
        try (ParallelCommitWriter writer = new ParallelCommitWriter(table, 4)) {
            assertThrows(IOException.class, () -> writer.tryCommitAll(records));
        }
    }

    @Test
    void aSplitBatchRetriedAfterLostRepliesWinsEveryRecord() throws IOException {
        List<CommitRecord> records = records(64);
        boolean[] all = new boolean[records.size()];
        Arrays.fill(all, true);
        try (ParallelCommitWriter writer = new ParallelCommitWriter(table, 4)) {
            table.failNext(4, InMemoryCommitTable.Fault.REPLY_LOST);
            assertThrows(IOException.class, () -> writer.tryCommitAll(records));
            assertArrayEquals(all, writer.tryCommitAll(records));
        }
        assertTrue(table.lookup(10).isCommitted());
    }

    @Test
    void aRecordWhoseDeadlinePassedIsNeverSentWhileOthersOfItsGroupAre() throws Exception {
        CommitRecordDeadline passed = passedDeadline();
        try (GroupCommitWriter writer = new GroupCommitWriter(table, blockingBatches(), 64, 1)) {
            CompletableFuture<Boolean> late = writer.tryCommit(new CommitRecord(10, 20), passed);
            CompletableFuture<Boolean> onTime = writer.tryCommit(new CommitRecord(30, 40),
                    CommitRecordDeadline.afterMillis(60_000));
            ExecutionException e = assertThrows(ExecutionException.class, late::get);
            assertTrue(e.getCause().getMessage().contains("commit-record deadline passed"), e.getCause().toString());
            assertTrue(onTime.get());
        }
        assertTrue(table.lookup(10).isAbsent(), "a record past its deadline is never written");
        assertTrue(table.lookup(30).isCommitted());
    }

    @Test
    void aSplitBatchPastItsDeadlineWritesNothing() {
        List<CommitRecord> records = records(64);
        CommitRecordDeadline passed = passedDeadline();
        try (ParallelCommitWriter writer = new ParallelCommitWriter(table, 4)) {
            assertThrows(IOException.class, () -> writer.tryCommitAll(records, passed));
        }
        assertEquals(0, table.size());
    }

    @Test
    void theEarlierDeadlineBindsAGroupAndNoneBindsNothing() throws IOException {
        CommitRecordDeadline soon = CommitRecordDeadline.afterMillis(1_000);
        CommitRecordDeadline later = CommitRecordDeadline.afterMillis(60_000);
        assertSame(soon, soon.earlier(later));
        assertSame(soon, later.earlier(soon));
        assertSame(soon, CommitRecordDeadline.NONE.earlier(soon));
        assertSame(soon, soon.earlier(CommitRecordDeadline.NONE));
        assertTrue(soon.remainingMillisForWrite() <= 1_000);
        assertEquals(Integer.MAX_VALUE, CommitRecordDeadline.NONE.remainingMillisForWrite());
        assertFalse(CommitRecordDeadline.NONE.hasPassed());
        assertThrows(IllegalArgumentException.class, () -> CommitRecordDeadline.afterMillis(0));
    }

    /** A deadline that has certainly passed. */
    private static CommitRecordDeadline passedDeadline() {
        CommitRecordDeadline deadline = CommitRecordDeadline.afterMillis(1);
        while (!deadline.hasPassed()) {
            Thread.onSpinWait();
        }
        return deadline;
    }

    private static List<CommitRecord> records(int count) {
        List<CommitRecord> records = new ArrayList<>();
        for (long start = 1; start <= count; start++) {
            records.add(new CommitRecord(start * 10, start * 10 + 1));
        }
        return records;
    }

    private CommitBatchSender blockingBatches() {
        return CommitBatchSender.blockingOn(table, SENDERS);
    }
}
