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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    void aPendingWriterAboveTheRowVersionIsReportedToWritesAndLeftAloneByReads() throws IOException {
        fastPath("a", 2 * S + 1, "fast");
        Rows.data(store, ROW, "a", 3 * S, "pending");
        CommittedRow row = CommittedRow.read(store, commitTable, ROW);
        assertEquals("fast", value(row, "a"));
        FastPathConflictException conflict = assertThrows(FastPathConflictException.class,
                () -> row.requireNoPendingWriter(ROW, "write"));
        assertEquals(true, conflict.getMessage().contains(String.valueOf(3 * S)), conflict.getMessage());
        CommittedRow settled = CommittedRow.readSettled(store, commitTable, ROW);
        assertEquals("fast", value(settled, "a"));
        assertEquals(2 * S + 1, settled.version());
        assertEquals(0, commitTable.size(), "a writer that started above the row version commits above it, if at"
                + " all: neither a write nor a read invalidates it");
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

    /**
     * CI anomaly of stop 23 (chaos region-moves, seed 6504509625837184374): a plain read found writer W pending in
     * column a (its commit record not written yet), then W's record appeared and the read found W committed in
     * column b. It answered a's value from before W with b's value from W, at W's commit timestamp: half of W.
     */
    @Test
    void aPlainReadNeverShowsHalfOfAWriterWhoseRecordAppearsDuringTheRead() throws IOException {
        generic("a", S, 2 * S, "a before W");
        generic("b", S, 2 * S, "b before W");
        Rows.data(store, ROW, "a", 10 * S, "a of W");
        Rows.data(store, ROW, "b", 10 * S, "b of W");
        // Read 2 re-reads a's shadow cell after a's commit-table lookup found nothing: W's record lands just then.
        store.beforeRead(2, () -> commitTable.tryCommit(new CommitRecord(10 * S, 11 * S)));
        CommittedRow row = CommittedRow.readSettled(store, commitTable, ROW);
        assertEquals("a of W", value(row, "a"));
        assertEquals("b of W", value(row, "b"));
        assertEquals(11 * S, row.version());
    }

    /**
     * Writer W1 got its commit timestamp from the TSO but has not written its record; W2 began after that and
     * committed a write to another column of the row. A plain read that skipped W1 and answered at W2's commit would
     * be wrong as soon as W1's record lands (W1 committed below it). The read invalidates W1 instead.
     */
    @Test
    void aPlainReadInvalidatesAPendingWriterThatCouldCommitBelowItsVersion() throws IOException {
        generic("a", S, 2 * S, "a before W1");
        Rows.data(store, ROW, "a", 10 * S, "a of W1");
        generic("b", 12 * S, 13 * S, "b of W2");
        CommittedRow row = CommittedRow.readSettled(store, commitTable, ROW);
        assertEquals("a before W1", value(row, "a"));
        assertEquals("b of W2", value(row, "b"));
        assertEquals(13 * S, row.version());
        assertTrue(commitTable.lookup(10 * S).isInvalidated(), "W1 can no longer commit below the read's version");
        assertFalse(commitTable.tryCommit(new CommitRecord(10 * S, 11 * S)));
    }

    /**
     * Settling a writer can raise the version: W1's record won the race with the read's invalidation, at a commit
     * above the version the read first found. W3, pending and started between the two, then could also commit below
     * the read's version, and is settled in turn.
     */
    @Test
    void aWriterSettledAsCommittedRaisesTheVersionAndTheWritersBelowItAreSettledToo() throws IOException {
        generic("a", S, 2 * S, "a before W1");
        Rows.data(store, ROW, "a", 10 * S, "a of W1");
        generic("b", 12 * S, 13 * S, "b of W2");
        Rows.data(store, ROW, "c", 14 * S, "c of W3");
        // Read 3 re-reads c's shadow cell in the first round: W1's lookup found nothing before it; its record lands.
        store.beforeRead(3, () -> commitTable.tryCommit(new CommitRecord(10 * S, 15 * S)));
        CommittedRow row = CommittedRow.readSettled(store, commitTable, ROW);
        assertEquals("a of W1", value(row, "a"));
        assertNull(row.value(F, Bytes.toBytes("c")), "W3 is invalidated");
        assertEquals(15 * S, row.version());
        assertTrue(commitTable.lookup(14 * S).isInvalidated());
    }

    /**
     * Issue 31: W writes a = 1, then a = 100 and b = x, in one transaction. A read of the row without its lock lands
     * after W's first put; W then finishes and commits before the read looks W up. Answering the cells it read, at
     * W's commit, showed a = 1 and no b: a state W never committed, and a read-modify-write built on it lost W's
     * a = 100. The read must read the row again once it learns W committed.
     */
    @Test
    void aPlainReadNeverAnswersTheCellsOfAWriterThatWasStillWritingTheRow() throws IOException {
        aWriterFinishesBetweenTheReadAndItsLookup();
        CommittedRow row = CommittedRow.readSettled(store, commitTable, ROW);
        assertEquals("100", value(row, "a"), "W's last write of a, not the one it overwrote");
        assertEquals("x", value(row, "b"), "all of W, not part of it");
        assertEquals(11 * S, row.version());
    }

    /** Issue 31, as a read for update (which aborts on pending writers rather than invalidate them) meets it. */
    @Test
    void aReadForUpdateNeverAnswersTheCellsOfAWriterThatWasStillWritingTheRow() throws IOException {
        aWriterFinishesBetweenTheReadAndItsLookup();
        CommittedRow row = CommittedRow.read(store, commitTable, ROW);
        assertEquals("100", value(row, "a"));
        assertEquals("x", value(row, "b"));
        assertEquals(11 * S, row.version());
        row.requireNoPendingWriter(ROW, "read for update");
    }

    /**
     * The second read knows the writers the first one learnt committed, so it is the last: one more read of the row
     * per writer caught between its commit and its shadow cells, not a loop.
     */
    @Test
    void aWriterFoundCommittedCostsOneMoreReadOfTheRow() throws IOException {
        Rows.data(store, ROW, "a", 10 * S, "a of W");
        commitTable.tryCommit(new CommitRecord(10 * S, 11 * S));
        CommittedRow row = CommittedRow.read(store, commitTable, ROW);
        assertEquals("a of W", value(row, "a"));
        assertEquals(2, store.reads());
    }

    /** W's first put is stored; W's other puts and its commit record land just after the first read of the row. */
    private void aWriterFinishesBetweenTheReadAndItsLookup() throws IOException {
        generic("a", S, 2 * S, "a before W");
        Rows.data(store, ROW, "a", 10 * S, "1");
        store.afterRead(1, () -> {
            Rows.data(store, ROW, "a", 10 * S, "100");
            Rows.data(store, ROW, "b", 10 * S, "x");
            commitTable.tryCommit(new CommitRecord(10 * S, 11 * S));
        });
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
