package io.tidemark.committable;

import io.tidemark.testing.TestCommitTable;
import io.tidemark.timestamp.Timestamps;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ParallelCommitWriterTest {


    private static TestCommitTable table;
    private static CommitTable commitTable;

    @BeforeAll
    static void createTable() throws Exception {
        table = TestCommitTable.create("parallelwritertest:commits", 4, false);
        commitTable = table.commitTable();
    }

    @AfterAll
    static void dropTable() throws Exception {
        table.drop();
    }

    @Test
    void aSplitBatchKeepsEachRecordsOutcomeInPlace() throws Exception {
        List<CommitRecord> records = new ArrayList<>();
        for (int i = 1; i <= 500; i++) {
            long start = i * Timestamps.TSO_STEP;
            records.add(new CommitRecord(start, start + 1));
            if (i % 7 == 0) {
                commitTable.invalidate(start);
            }
        }
        boolean[] won;
        try (ParallelCommitWriter writer = new ParallelCommitWriter(commitTable, 8)) {
            won = writer.tryCommitAll(records);
        }
        assertEquals(records.size(), won.length);
        for (int i = 0; i < records.size(); i++) {
            long start = records.get(i).startTimestamp();
            if ((i + 1) % 7 == 0) {
                assertFalse(won[i], "record " + i + " was invalidated first");
                assertTrue(commitTable.lookup(start).isInvalidated());
            } else {
                assertTrue(won[i], "record " + i + " should have committed");
                assertEquals(start + 1, commitTable.lookup(start).commitTimestamp());
            }
        }
    }
}
