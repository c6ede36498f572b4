package io.tidemark.committable;

import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.testing.TestCommitTable;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.client.Admin;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CommitTableTest {

    private static final AtomicLong NEXT = new AtomicLong(1);

    private static TestCommitTable table;
    private static CommitTable commitTable;

    @BeforeAll
    static void createTable() throws Exception {
        table = TestCommitTable.create("committabletest:commits", 4, false);
        commitTable = table.commitTable();
        try (Admin admin = SharedMiniCluster.connection().getAdmin()) {
            assertEquals(4, admin.getRegions(table.name()).size());
        }
    }

    @AfterAll
    static void dropTable() throws Exception {
        table.drop();
    }

    private static long freshStart() {
        return NEXT.getAndIncrement() * Timestamps.TSO_STEP;
    }

    @Test
    void committedRecordIsFound() throws Exception {
        long start = freshStart();
        assertTrue(commitTable.lookup(start).isAbsent());
        assertTrue(commitTable.tryCommit(new CommitRecord(start, start + Timestamps.TSO_STEP)));
        CommitState state = commitTable.lookup(start);
        assertTrue(state.isCommitted());
        assertEquals(start + Timestamps.TSO_STEP, state.commitTimestamp());
    }

    @Test
    void invalidationBeatsALateCommit() throws Exception {
        long start = freshStart();
        assertTrue(commitTable.invalidate(start).isInvalidated());
        assertFalse(commitTable.tryCommit(new CommitRecord(start, start + 1)));
        assertTrue(commitTable.lookup(start).isInvalidated());
    }

    @Test
    void commitBeatsALateInvalidation() throws Exception {
        long start = freshStart();
        assertTrue(commitTable.tryCommit(new CommitRecord(start, start + 5)));
        CommitState winner = commitTable.invalidate(start);
        assertTrue(winner.isCommitted());
        assertEquals(start + 5, winner.commitTimestamp());
    }

    @Test
    void undoInvalidationNeverRemovesACommit() throws Exception {
        long invalidated = freshStart();
        commitTable.invalidate(invalidated);
        commitTable.undoInvalidation(invalidated);
        assertTrue(commitTable.lookup(invalidated).isAbsent());

        long committed = freshStart();
        commitTable.tryCommit(new CommitRecord(committed, committed + 1));
        commitTable.undoInvalidation(committed);
        assertTrue(commitTable.lookup(committed).isCommitted());
    }

    @Test
    void batchCommitReportsEachRecordsOutcome() throws Exception {
        long a = freshStart();
        long b = freshStart();
        long c = freshStart();
        commitTable.invalidate(b);
        boolean[] won = commitTable.tryCommitAll(List.of(new CommitRecord(a, a + 1), new CommitRecord(b, b + 1),
                new CommitRecord(c, c + 1)));
        assertArrayEquals(new boolean[] {true, false, true}, won);
        commitTable.deleteAll(List.of(a, b, c));
        assertTrue(commitTable.lookup(a).isAbsent());
        assertTrue(commitTable.lookup(b).isAbsent());
        assertTrue(commitTable.lookup(c).isAbsent());
    }

    @Test
    void lowWatermarkRoundTrips() throws Exception {
        commitTable.writeLowWatermark(123 * Timestamps.TSO_STEP);
        assertEquals(123 * Timestamps.TSO_STEP, commitTable.readLowWatermark());
    }

    @Test
    void groupCommitWriterCommitsConcurrentRecordsAndReportsInvalidations() throws Exception {
        long invalidated = freshStart();
        commitTable.invalidate(invalidated);
        List<Long> starts = new ArrayList<>();
        List<CompletableFuture<Boolean>> results = new ArrayList<>();
        try (GroupCommitWriter writer = new GroupCommitWriter(commitTable, 64, 4)) {
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
            assertEquals(start + 1, commitTable.lookup(start).commitTimestamp());
        }
    }
}
