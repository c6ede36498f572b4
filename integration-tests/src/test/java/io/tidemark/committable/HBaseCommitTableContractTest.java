package io.tidemark.committable;

import io.tidemark.testing.CommitTableContract;
import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.testing.TestCommitTable;
import io.tidemark.testing.faults.LostReplies;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The commit-table contract against HBase, plus what only a real region server can do: lose the reply of a write it
 * applied, so that HBase's client re-sends it. The two subclasses run it on a table with and without the commit-record
 * guard.
 */
abstract class HBaseCommitTableContractTest extends CommitTableContract {

    /** The table of each subclass (with or without the guard), created on first use. */
    private static final Map<Boolean, TestCommitTable> TABLES = new HashMap<>();

    private final boolean guarded;

    HBaseCommitTableContractTest(boolean guarded) {
        this.guarded = guarded;
    }

    /** The table under test: 4 regions, the lost-reply injector attached. */
    private TestCommitTable testTable() {
        synchronized (TABLES) {
            TestCommitTable table = TABLES.get(guarded);
            if (table == null) {
                try {
                    table = TestCommitTable.create("contract:" + (guarded ? "guarded" : "unguarded"), 4, guarded);
                    LostReplies.attachTo(SharedMiniCluster.connection(), table.name());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                TABLES.put(guarded, table);
            }
            return table;
        }
    }

    @Override
    protected CommitTable table() {
        return testTable().commitTable();
    }

    @AfterEach
    void disarm() {
        LostReplies.disarm(testTable().name());
    }

    @AfterAll
    static void dropTables() throws IOException {
        synchronized (TABLES) {
            for (TestCommitTable table : TABLES.values()) {
                table.drop();
            }
            TABLES.clear();
        }
    }

    @Test
    void writesCommitsTheWayTheTableAllows() throws Exception {
        assertEquals(guarded, testTable().commitTable().isGuarded(),
                "guarded puts with the guard, check-and-mutates without");
    }

    @Test
    void aCommitWhoseReplyIsLostStillWins() throws Exception {
        long start = freshStart();
        long lost = loseNextReply();
        assertTrue(table().tryCommit(new CommitRecord(start, start + 7)));
        assertEquals(CommitState.committed(start + 7), table().lookup(start));
        assertEquals(lost + 1, LostReplies.lost(testTable().name()), "the reply was lost and the write re-sent");
    }

    @Test
    void aBatchWhoseReplyIsLostStillWinsEveryRecord() throws Exception {
        long a = freshStart();
        long b = freshStart();
        long c = freshStart();
        table().invalidate(b);
        long lost = loseNextReply();
        boolean[] won = table().tryCommitAll(List.of(new CommitRecord(a, a + 1), new CommitRecord(b, b + 1),
                new CommitRecord(c, c + 1)));
        assertArrayEquals(new boolean[] {true, false, true}, won, "only the invalidated record lost");
        assertEquals(lost + 1, LostReplies.lost(testTable().name()), "the reply was lost and the write re-sent");
    }

    @Test
    void anInvalidationWhoseReplyIsLostStillInvalidates() throws Exception {
        long start = freshStart();
        long lost = loseNextReply();
        assertTrue(table().invalidate(start).isInvalidated());
        assertTrue(table().lookup(start).isInvalidated());
        assertEquals(lost + 1, LostReplies.lost(testTable().name()), "the reply was lost and the write re-sent");
    }

    /** Arms the injector for one lost reply; returns the replies lost so far. */
    private long loseNextReply() {
        long lost = LostReplies.lost(testTable().name());
        LostReplies.armNext(testTable().name(), 1);
        return lost;
    }
}
