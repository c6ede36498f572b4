package io.tidemark.testing;

import io.tidemark.committable.CommitBatchSender;
import io.tidemark.committable.CommitRecord;
import io.tidemark.committable.CommitRecordDeadline;
import io.tidemark.committable.CommitState;
import io.tidemark.committable.CommitTable;
import io.tidemark.committable.GroupCommitWriter;
import io.tidemark.committable.ParallelCommitWriter;
import io.tidemark.timestamp.Timestamps;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What every {@link CommitTable} must do (docs/architecture.md, "Commit table"), as an abstract JUnit test: a subclass
 * per implementation supplies the table, so the in-memory table used by unit tests cannot drift from HBase's.
 */
public abstract class CommitTableContract {

    private static final AtomicLong NEXT = new AtomicLong(1);
    /** Runs blocking group-commit batches; its threads are daemons and end when idle. */
    private static final ExecutorService SENDERS = Executors.newCachedThreadPool(runnable -> {
        Thread t = new Thread(runnable, "contract-batch-sender");
        t.setDaemon(true);
        return t;
    });

    /** The table under test; may be shared by all test methods of the subclass. */
    protected abstract CommitTable table();

    /**
     * How group commit sends its batches to this table: blocking calls on threads of the contract's own, unless the
     * table has an asynchronous client of its own.
     */
    protected CommitBatchSender groupCommitBatches() {
        return CommitBatchSender.blockingOn(table(), SENDERS);
    }

    private GroupCommitWriter groupCommitWriter(int maxBatch, int roundTrips) {
        return new GroupCommitWriter(table(), groupCommitBatches(), maxBatch, roundTrips);
    }

    /** A start timestamp no other test used. */
    protected static long freshStart() {
        return NEXT.getAndIncrement() * Timestamps.TSO_STEP;
    }

    @Test
    void committedRecordIsFound() throws Exception {
        long start = freshStart();
        assertTrue(table().lookup(start).isAbsent());
        assertTrue(table().tryCommit(new CommitRecord(start, start + 5)));
        assertEquals(CommitState.committed(start + 5), table().lookup(start));
    }

    @Test
    void invalidationBeatsALateCommit() throws Exception {
        long start = freshStart();
        assertTrue(table().invalidate(start).isInvalidated());
        assertFalse(table().tryCommit(new CommitRecord(start, start + 1)));
        assertFalse(table().tryCommitAll(List.of(new CommitRecord(start, start + 1)))[0]);
        assertTrue(table().lookup(start).isInvalidated());
    }

    @Test
    void commitBeatsALateInvalidation() throws Exception {
        long start = freshStart();
        assertTrue(table().tryCommit(new CommitRecord(start, start + 5)));
        assertEquals(CommitState.committed(start + 5), table().invalidate(start));
        assertEquals(CommitState.committed(start + 5), table().lookup(start));
    }

    @Test
    void aRepeatedCommitFindsItsOwnRecordAndWins() throws Exception {
        long start = freshStart();
        CommitRecord record = new CommitRecord(start, start + 3);
        assertTrue(table().tryCommit(record));
        assertTrue(table().tryCommit(record), "the same commit, re-sent, decides by content");
        assertArrayEquals(new boolean[] {true}, table().tryCommitAll(List.of(record)));
    }

    @Test
    void aRepeatedBatchFindsItsOwnRecordsAndKeepsEachOutcome() throws Exception {
        long a = freshStart();
        long b = freshStart();
        long c = freshStart();
        table().invalidate(b);
        List<CommitRecord> batch = List.of(new CommitRecord(a, a + 1), new CommitRecord(b, b + 1),
                new CommitRecord(c, c + 1));
        assertArrayEquals(new boolean[] {true, false, true}, table().tryCommitAll(batch));
        assertArrayEquals(new boolean[] {true, false, true}, table().tryCommitAll(batch));
    }

    @Test
    void aCommitWithAnotherCommitTimestampLoses() throws Exception {
        long start = freshStart();
        assertTrue(table().tryCommit(new CommitRecord(start, start + 1)));
        assertFalse(table().tryCommit(new CommitRecord(start, start + 2)));
        assertFalse(table().tryCommitAll(List.of(new CommitRecord(start, start + 2)))[0]);
        assertEquals(CommitState.committed(start + 1), table().lookup(start));
    }

    @Test
    void aRepeatedInvalidationFindsTheMarkerAndStillInvalidates() throws Exception {
        long start = freshStart();
        assertTrue(table().invalidate(start).isInvalidated());
        assertTrue(table().invalidate(start).isInvalidated());
    }

    @Test
    void undoInvalidationNeverRemovesACommit() throws Exception {
        long invalidated = freshStart();
        table().invalidate(invalidated);
        table().undoInvalidation(invalidated);
        assertTrue(table().lookup(invalidated).isAbsent());

        long committed = freshStart();
        table().tryCommit(new CommitRecord(committed, committed + 1));
        table().undoInvalidation(committed);
        assertTrue(table().lookup(committed).isCommitted());
    }

    @Test
    void deletedRecordsAreAbsent() throws Exception {
        long a = freshStart();
        long b = freshStart();
        long c = freshStart();
        table().tryCommitAll(List.of(new CommitRecord(a, a + 1), new CommitRecord(b, b + 1)));
        table().invalidate(c);
        table().release(new CommitRecord(a, a + 1));
        table().releaseAll(List.of(new CommitRecord(b, b + 1), new CommitRecord(c, c + 1)));
        assertTrue(table().lookup(a).isAbsent());
        assertTrue(table().lookup(b).isAbsent());
        assertTrue(table().lookup(c).isAbsent());
    }

    @Test
    void lowWatermarkRoundTrips() throws Exception {
        long mark = freshStart();
        table().raiseLowWatermark(mark);
        assertEquals(mark, table().readLowWatermark());
    }

    /**
     * Issue 32: a TSO that paused between its lease check and its write persisted its older, lower watermark over
     * its successor's, and a region that compacted at the higher one and reopened then let snapshots between the two
     * read what compaction removed.
     */
    @Test
    void theLowWatermarkNeverGoesDown() throws Exception {
        long successors = freshStart();
        long deposed = successors - 1;
        table().raiseLowWatermark(successors);
        table().raiseLowWatermark(deposed);
        assertEquals(successors, table().readLowWatermark());
        table().raiseLowWatermark(successors + 1);
        assertEquals(successors + 1, table().readLowWatermark());
    }

    @Test
    void exactlyOneOfCommitAndInvalidationWinsUnderRaces() throws Exception {
        int records = 200;
        int batchSize = 25;
        List<Long> starts = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            starts.add(freshStart());
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<boolean[]>> commits = new ArrayList<>();
            for (int from = 0; from < records; from += batchSize) {
                List<CommitRecord> batch = new ArrayList<>();
                for (long start : starts.subList(from, from + batchSize)) {
                    batch.add(new CommitRecord(start, start + 1));
                }
                commits.add(pool.submit(() -> table().tryCommitAll(batch)));
            }
            List<Future<CommitState>> invalidations = new ArrayList<>();
            for (long start : starts) {
                invalidations.add(pool.submit(() -> table().invalidate(start)));
            }
            for (int i = 0; i < records; i++) {
                boolean committed = commits.get(i / batchSize).get()[i % batchSize];
                CommitState invalidation = invalidations.get(i).get();
                CommitState stored = table().lookup(starts.get(i));
                assertNotEquals(committed, invalidation.isInvalidated(), "record " + i + ": both or neither won");
                assertEquals(committed, stored.isCommitted());
                assertEquals(!committed, stored.isInvalidated());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void groupCommitWriterCommitsConcurrentRecordsAndReportsInvalidations() throws Exception {
        long invalidated = freshStart();
        table().invalidate(invalidated);
        List<Long> starts = new ArrayList<>();
        List<CompletableFuture<Boolean>> results = new ArrayList<>();
        try (GroupCommitWriter writer = groupCommitWriter(64, 4)) {
            for (int i = 0; i < 200; i++) {
                long start = freshStart();
                starts.add(start);
                results.add(writer.tryCommit(new CommitRecord(start, start + 1)));
            }
            CompletableFuture<Boolean> lost = writer.tryCommit(new CommitRecord(invalidated, invalidated + 1));
            for (CompletableFuture<Boolean> r : results) {
                assertTrue(r.get());
            }
            assertFalse(lost.get());
        }
        for (long start : starts) {
            assertEquals(start + 1, table().lookup(start).commitTimestamp());
        }
    }

    @Test
    void aLoneCommitThroughGroupCommitLosesToAnInvalidationAndFindsItsOwnRecord() throws Exception {
        long invalidated = freshStart();
        long repeated = freshStart();
        table().invalidate(invalidated);
        try (GroupCommitWriter writer = groupCommitWriter(64, 4)) {
            assertFalse(writer.commit(new CommitRecord(invalidated, invalidated + 1), CommitRecordDeadline.NONE));
            assertTrue(writer.commit(new CommitRecord(repeated, repeated + 1), CommitRecordDeadline.NONE));
            assertTrue(writer.commit(new CommitRecord(repeated, repeated + 1), CommitRecordDeadline.NONE),
                    "the same commit, re-sent, finds its own record");
            assertFalse(writer.commit(new CommitRecord(repeated, repeated + 2), CommitRecordDeadline.NONE));
        }
        assertTrue(table().lookup(invalidated).isInvalidated());
        assertEquals(CommitState.committed(repeated + 1), table().lookup(repeated));
    }

    @Test
    void aSplitBatchKeepsEachRecordsOutcomeInPlace() throws Exception {
        List<CommitRecord> records = new ArrayList<>();
        for (int i = 1; i <= 300; i++) {
            long start = freshStart();
            records.add(new CommitRecord(start, start + 1));
            if (i % 7 == 0) {
                table().invalidate(start);
            }
        }
        boolean[] won;
        try (ParallelCommitWriter writer = new ParallelCommitWriter(table(), 8)) {
            won = writer.tryCommitAll(records);
        }
        assertEquals(records.size(), won.length);
        for (int i = 0; i < records.size(); i++) {
            long start = records.get(i).startTimestamp();
            if ((i + 1) % 7 == 0) {
                assertFalse(won[i], "record " + i + " was invalidated first");
                assertTrue(table().lookup(start).isInvalidated());
            } else {
                assertTrue(won[i], "record " + i + " should have committed");
                assertEquals(start + 1, table().lookup(start).commitTimestamp());
            }
        }
    }
}
