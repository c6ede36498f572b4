package io.tidemark.coprocessor.committable;

import io.tidemark.committable.CommitRecord;
import io.tidemark.committable.CommitState;
import io.tidemark.committable.HBaseCommitTable;
import io.tidemark.testing.TestCommitTable;
import io.tidemark.timestamp.Timestamps;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CommitRecordGuardTest {

    private static final AtomicLong NEXT = new AtomicLong(1);

    private static TestCommitTable table;
    private static HBaseCommitTable commitTable;

    @BeforeAll
    static void createTable() throws Exception {
        table = TestCommitTable.create("guardtest:commits", 4, true);
        commitTable = table.commitTable();
    }

    @AfterAll
    static void dropTable() throws Exception {
        table.drop();
    }

    private static long freshStart() {
        return NEXT.getAndIncrement() * Timestamps.TSO_STEP;
    }

    @Test
    void guardedTableIsRecognised() throws Exception {
        assertTrue(commitTable.isGuarded());
    }

    @Test
    void guardedBatchRefusesRecordsAlreadyInvalidated() throws Exception {
        long a = freshStart();
        long b = freshStart();
        long c = freshStart();
        commitTable.invalidate(b);
        boolean[] won = commitTable.tryCommitAll(List.of(new CommitRecord(a, a + 1), new CommitRecord(b, b + 1),
                new CommitRecord(c, c + 1)));
        assertArrayEquals(new boolean[] {true, false, true}, won);
        assertEquals(a + 1, commitTable.lookup(a).commitTimestamp());
        assertTrue(commitTable.lookup(b).isInvalidated());
        assertEquals(c + 1, commitTable.lookup(c).commitTimestamp());
    }

    @Test
    void guardedCommitBeatsALateInvalidation() throws Exception {
        long start = freshStart();
        assertTrue(commitTable.tryCommitAll(List.of(new CommitRecord(start, start + 9)))[0]);
        CommitState winner = commitTable.invalidate(start);
        assertEquals(start + 9, winner.commitTimestamp());
    }

    @Test
    void exactlyOneOfCommitAndInvalidationWinsUnderRaces() throws Exception {
        int records = 400;
        List<Long> starts = new ArrayList<>();
        for (int i = 0; i < records; i++) {
            starts.add(freshStart());
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<boolean[]>> commits = new ArrayList<>();
            for (int from = 0; from < records; from += 50) {
                List<CommitRecord> batch = new ArrayList<>();
                for (long start : starts.subList(from, from + 50)) {
                    batch.add(new CommitRecord(start, start + 1));
                }
                commits.add(pool.submit(() -> commitTable.tryCommitAll(batch)));
            }
            List<Future<CommitState>> invalidations = new ArrayList<>();
            for (long start : starts) {
                invalidations.add(pool.submit(() -> commitTable.invalidate(start)));
            }
            for (int i = 0; i < records; i++) {
                boolean committed = commits.get(i / 50).get()[i % 50];
                CommitState invalidation = invalidations.get(i).get();
                CommitState stored = commitTable.lookup(starts.get(i));
                assertNotEquals(committed, invalidation.isInvalidated(), "record " + i + ": both or neither won");
                assertEquals(committed, stored.isCommitted());
                assertEquals(!committed, stored.isInvalidated());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void unguardedTableStillUsesConditionalWrites() throws Exception {
        TestCommitTable plainTable = TestCommitTable.create("guardtest:plain", 1, false);
        try {
            HBaseCommitTable plain = plainTable.commitTable();
            assertFalse(plain.isGuarded());
            long start = freshStart();
            plain.invalidate(start);
            assertFalse(plain.tryCommitAll(List.of(new CommitRecord(start, start + 1)))[0]);
        } finally {
            plainTable.drop();
        }
    }
}
