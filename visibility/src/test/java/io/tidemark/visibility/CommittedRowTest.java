package io.tidemark.visibility;

import io.tidemark.committable.CommitRecord;
import io.tidemark.committable.InMemoryCommitTable;
import io.tidemark.fastpath.FastPathConflictException;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static io.tidemark.visibility.Rows.F;
import static io.tidemark.visibility.Rows.ROW;
import static io.tidemark.visibility.Rows.S;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The latest committed state of a row, as the fast path reads it. */
class CommittedRowTest {

    private final InMemoryVersionStore store = new InMemoryVersionStore();
    private final InMemoryCommitTable commitTable = new InMemoryCommitTable();

    @Test
    void theLatestCommittedValuesAndTheRowVersion() throws IOException {
        fastPath("a", 2 * S + 1, "fast");
        generic("b", 3 * S, 4 * S, "generic");
        Rows.data(store, ROW, "b", 5 * S, "crashed long ago");
        commitTable.invalidate(5 * S);
        Rows.deletion(store, ROW, "c", 6 * S + 1);
        Rows.shadow(store, ROW, "c", 6 * S + 1, 6 * S + 1);
        CommittedRow row = CommittedRow.read(store, commitTable, ROW);
        assertEquals("fast", value(row, "a"));
        assertEquals("generic", value(row, "b"));
        assertNull(row.value(F, Bytes.toBytes("c")), "deleted");
        assertEquals(6 * S + 1, row.version());
        row.requireNoPendingWriter(ROW, "write");
    }

    @Test
    void aPendingWriterAboveTheNewestFastPathVersionIsReportedNeverInvalidated() throws IOException {
        fastPath("a", 2 * S + 1, "fast");
        Rows.data(store, ROW, "a", 3 * S, "pending");
        CommittedRow row = CommittedRow.read(store, commitTable, ROW);
        assertEquals("fast", value(row, "a"));
        FastPathConflictException conflict = assertThrows(FastPathConflictException.class,
                () -> row.requireNoPendingWriter(ROW, "write"));
        assertEquals(true, conflict.getMessage().contains(String.valueOf(3 * S)), conflict.getMessage());
        assertEquals(0, commitTable.size(), "the fast path never invalidates");
    }

    @Test
    void anUndecidedWriterBelowTheNewestFastPathVersionNeverCommitted() throws IOException {
        Rows.data(store, ROW, "a", 3 * S, "looks pending");
        fastPath("b", 4 * S + 1, "fast");
        CommittedRow.read(store, commitTable, ROW).requireNoPendingWriter(ROW, "write");
    }

    /**
     * Drift bug (issue 8 item 4, issue 10): a plain fast-path read remembered a pending writer across its two read
     * passes. When the writer committed between them and a newer fast-path write landed, the second pass skipped
     * the writer as "pending below a fast-path version" and returned the new fast-path value with the value from
     * before the writer: a row state that never existed.
     */
    @Test
    void aReadInTwoPassesShowsOneRowState() throws IOException {
        generic("a", S, 2 * S, "before W");
        Rows.data(store, ROW, "a", 110 * S, "W's value");
        // Column b holds a full window of undecided versions below the fast-path version: the window decides
        // nothing, so the whole row is read a second time.
        fastPath("c", 100 * S + 1, "fast 1");
        for (int i = 0; i < CommittedRow.WINDOW; i++) {
            Rows.data(store, ROW, "b", (90 + i) * S, "crashed " + i);
        }
        // Between the passes, W commits (its shadow cell not written yet) and a newer fast-path write lands.
        store.beforeRead(2, () -> {
            commitTable.tryCommit(new CommitRecord(110 * S, 111 * S));
            fastPath("c", 111 * S + 1, "fast 2");
        });
        CommittedRow row = CommittedRow.read(store, commitTable, ROW);
        assertEquals("fast 2", value(row, "c"));
        assertEquals("W's value", value(row, "a"), "fast 2 was written after W committed");
        assertEquals(111 * S + 1, row.version());
    }

    private void fastPath(String qualifier, long version, String value) throws IOException {
        Rows.data(store, ROW, qualifier, version, value);
        Rows.shadow(store, ROW, qualifier, version, version);
    }

    private void generic(String qualifier, long writer, long commit, String value) throws IOException {
        Rows.data(store, ROW, qualifier, writer, value);
        Rows.shadow(store, ROW, qualifier, writer, commit);
    }

    private static String value(CommittedRow row, String qualifier) {
        return Bytes.toString(CellUtil.cloneValue(row.value(F, Bytes.toBytes(qualifier))));
    }
}
