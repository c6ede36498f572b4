package io.tidemark.visibility;

import io.tidemark.committable.CommitRecord;
import io.tidemark.committable.CommitState;
import io.tidemark.committable.InMemoryCommitTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;

import static io.tidemark.visibility.Rows.S;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** Invalidating a writer that looks pending: what settles it, and when the invalidation is undone. */
@Timeout(10)
class WriterInvalidationTest {

    private static final long WRITER = 4 * S;

    private final InMemoryCommitTable commitTable = new InMemoryCommitTable();

    @Test
    void aCommitRecordThatWonTheRaceDecidesWithoutASearch() throws IOException {
        commitTable.tryCommit(new CommitRecord(WRITER, 5 * S));
        WriterInvalidation invalidation = WriterInvalidation.invalidate(commitTable, WRITER,
                () -> fail("the record decided: no shadow cell is looked for"));
        assertTrue(invalidation.isCommittedByRecord());
        assertEquals(5 * S, invalidation.commitTimestamp());
        assertEquals(CommitState.committed(5 * S), commitTable.lookup(WRITER));
    }

    @Test
    void aShadowCellFoundAfterTheInvalidationProvesTheCommitAndUndoesIt() throws IOException {
        WriterInvalidation invalidation = WriterInvalidation.invalidate(commitTable, WRITER, () -> 6 * S);
        assertTrue(invalidation.isCommitted());
        assertFalse(invalidation.isCommittedByRecord());
        assertEquals(6 * S, invalidation.commitTimestamp());
        assertTrue(commitTable.lookup(WRITER).isAbsent(), "the marker is removed");
    }

    @Test
    void withoutARecordOrAShadowCellTheInvalidationStands() throws IOException {
        WriterInvalidation invalidation = WriterInvalidation.invalidate(commitTable, WRITER, () -> null);
        assertFalse(invalidation.isCommitted());
        assertThrows(IllegalStateException.class, invalidation::commitTimestamp);
        assertTrue(commitTable.lookup(WRITER).isInvalidated());
    }
}
