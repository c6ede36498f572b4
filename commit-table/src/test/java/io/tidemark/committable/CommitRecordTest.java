package io.tidemark.committable;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When a refused commit-record write still won: the one rule every commit table and the TSO apply. */
@Timeout(10)
class CommitRecordTest {

    private final CommitRecord record = new CommitRecord(4096, 8192);

    @Test
    void aStoredCommitAtTheRecordsTimestampIsTheRecordItself() {
        assertTrue(record.isRecordedAs(CommitState.committed(8192)));
    }

    @Test
    void anInvalidationAnotherCommitTimestampOrNothingMeansTheRecordLost() {
        assertFalse(record.isRecordedAs(CommitState.invalidated()));
        assertFalse(record.isRecordedAs(CommitState.committed(12288)));
        assertFalse(record.isRecordedAs(CommitState.absent()));
    }
}
