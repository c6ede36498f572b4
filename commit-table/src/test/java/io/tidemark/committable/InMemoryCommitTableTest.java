package io.tidemark.committable;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The in-memory table's injected failures (its semantics are the shared contract, CommitTableContract in
 * test-fixtures, run against it in integration-tests).
 */
class InMemoryCommitTableTest {

    private final InMemoryCommitTable table = new InMemoryCommitTable();

    @Test
    void anUnavailableTableChangesNothing() {
        table.failNext(1, InMemoryCommitTable.Fault.UNAVAILABLE);
        assertThrows(IOException.class, () -> table.tryCommit(new CommitRecord(10, 20)));
        assertEquals(0, table.size());
    }

    @Test
    void aLostReplyTakesEffectAndTheRetryWins() throws IOException {
        CommitRecord record = new CommitRecord(10, 20);
        table.failNext(1, InMemoryCommitTable.Fault.REPLY_LOST);
        assertThrows(IOException.class, () -> table.tryCommit(record));
        assertEquals(CommitState.committed(20), table.lookup(10));
        assertTrue(table.tryCommit(record), "the retry finds its own record");
    }

    @Test
    void failuresStopAfterTheGivenNumberOfCalls() throws IOException {
        table.failNext(2, InMemoryCommitTable.Fault.UNAVAILABLE);
        assertThrows(IOException.class, () -> table.readLowWatermark());
        assertThrows(IOException.class, () -> table.releaseAll(List.of(new CommitRecord(1, 2))));
        assertEquals(0, table.readLowWatermark());
    }

    @Test
    void negativeFailureCountsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> table.failNext(-1, InMemoryCommitTable.Fault.REPLY_LOST));
    }
}
