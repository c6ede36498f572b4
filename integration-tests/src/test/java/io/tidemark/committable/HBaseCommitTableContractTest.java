package io.tidemark.committable;

import io.tidemark.testing.CommitTableContract;
import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.testing.TestCommitTable;
import io.tidemark.testing.faults.LostReplies;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The commit-table contract against HBase, plus what only a real region server can do: lose the reply of a write it
 * applied, so that HBase's client re-sends it. The two subclasses run it on a table with and without the commit-record
 * guard.
 */
abstract class HBaseCommitTableContractTest extends CommitTableContract {

    /** The table of each subclass (with or without the guard), created on first use. */
    private static final Map<Boolean, TestCommitTable> TABLES = new HashMap<>();
    private static final Map<Boolean, HBaseAsyncCommitBatches> ASYNC_BATCHES = new HashMap<>();

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

    /** Group commit's asynchronous batches to this subclass's table, opened on first use and closed after all. */
    @Override
    protected CommitBatchSender groupCommitBatches() {
        synchronized (TABLES) {
            return ASYNC_BATCHES.computeIfAbsent(guarded, g -> new HBaseAsyncCommitBatches(testTable().commitTable(),
                    SharedMiniCluster.connection()));
        }
    }

    @AfterEach
    void disarm() {
        LostReplies.disarm(testTable().name());
    }

    @AfterAll
    static void dropTables() throws IOException {
        synchronized (TABLES) {
            ASYNC_BATCHES.values().forEach(HBaseAsyncCommitBatches::close);
            ASYNC_BATCHES.clear();
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
    void anAsyncBatchWhoseReplyIsLostStillWinsEveryRecord() throws Exception {
        long a = freshStart();
        long b = freshStart();
        long c = freshStart();
        table().invalidate(b);
        long lost = loseNextReply();
        boolean[] won = groupCommitBatches().send(List.of(new CommitRecord(a, a + 1), new CommitRecord(b, b + 1),
                new CommitRecord(c, c + 1)), CommitRecordDeadline.NONE).get(30, TimeUnit.SECONDS);
        assertArrayEquals(new boolean[] {true, false, true}, won, "only the invalidated record lost");
        assertEquals(lost + 1, LostReplies.lost(testTable().name()), "the reply was lost and the write re-sent");
        assertEquals(CommitState.committed(a + 1), table().lookup(a));
        assertTrue(table().lookup(b).isInvalidated());
    }

    @Test
    void anAsyncBatchPastItsDeadlineIsNeverSent() throws Exception {
        long start = freshStart();
        CommitRecordDeadline passed = CommitRecordDeadline.afterMillis(1);
        while (!passed.hasPassed()) {
            Thread.onSpinWait();
        }
        CompletableFuture<boolean[]> sent = groupCommitBatches().send(List.of(new CommitRecord(start, start + 1)),
                passed);
        ExecutionException refused = assertThrows(ExecutionException.class, () -> sent.get(30, TimeUnit.SECONDS));
        assertInstanceOf(IOException.class, refused.getCause());
        assertTrue(table().lookup(start).isAbsent());
    }

    @Test
    void anAsyncBatchSentWhileItsRegionIsClosedDecidesEveryRecordOnceItReopens() throws Exception {
        long warm = freshStart();
        assertTrue(groupCommitBatches().send(List.of(new CommitRecord(warm, warm + 1)), CommitRecordDeadline.NONE)
                .get(30, TimeUnit.SECONDS)[0], "the connection is open and the regions' locations are cached");
        long a = freshStart();
        long b = freshStartInPartitionOf(a);
        long c = freshStartInPartitionOf(a);
        table().invalidate(b);
        byte[] row = testTable().commitTable().schema().rowKey(a);
        try (Admin admin = SharedMiniCluster.connection().getAdmin();
             RegionLocator locator = SharedMiniCluster.connection().getRegionLocator(testTable().name())) {
            byte[] region = locator.getRegionLocation(row).getRegion().getRegionName();
            admin.unassign(region);
            CompletableFuture<boolean[]> sent = groupCommitBatches().send(List.of(new CommitRecord(a, a + 1),
                    new CommitRecord(b, b + 1), new CommitRecord(c, c + 1)), CommitRecordDeadline.NONE);
            admin.assign(region);
            assertArrayEquals(new boolean[] {true, false, true}, sent.get(60, TimeUnit.SECONDS),
                    "only the invalidated record lost");
        }
        assertEquals(CommitState.committed(a + 1), table().lookup(a));
        assertTrue(table().lookup(b).isInvalidated());
        assertEquals(CommitState.committed(c + 1), table().lookup(c));
    }

    @Test
    void anInvalidationWhoseReplyIsLostStillInvalidates() throws Exception {
        long start = freshStart();
        long lost = loseNextReply();
        assertTrue(table().invalidate(start).isInvalidated());
        assertTrue(table().lookup(start).isInvalidated());
        assertEquals(lost + 1, LostReplies.lost(testTable().name()), "the reply was lost and the write re-sent");
    }

    /** A fresh start timestamp whose record is stored in the same partition, so the same region, as {@code other}'s. */
    private long freshStartInPartitionOf(long other) {
        long start = freshStart();
        while (table().partition(start) != table().partition(other)) {
            start = freshStart();
        }
        return start;
    }

    /** Arms the injector for one lost reply; returns the replies lost so far. */
    private long loseNextReply() {
        long lost = LostReplies.lost(testTable().name());
        LostReplies.armNext(testTable().name(), 1);
        return lost;
    }
}
