package io.tidemark.committable;

import io.tidemark.testing.CommitTableContract;
import io.tidemark.testing.TestCommitTable;
import io.tidemark.testing.faults.LostReplies;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The commit-table contract against HBase, plus what only a real region server can do: lose the reply of a write it
 * applied, so that HBase's client re-sends it. Subclasses run it on a table with and without the commit-record guard.
 */
abstract class HBaseCommitTableContractTest extends CommitTableContract {

    /** The table under test, created by the subclass with the lost-reply injector attached. */
    protected abstract TestCommitTable testTable();

    @Override
    protected CommitTable table() {
        return testTable().commitTable();
    }

    @AfterEach
    void disarm() {
        LostReplies.disarm(testTable().name());
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
