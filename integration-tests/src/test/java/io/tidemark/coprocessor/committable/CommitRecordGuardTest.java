package io.tidemark.coprocessor.committable;

import io.tidemark.committable.CommitTableSchema;
import io.tidemark.testing.SharedMiniCluster;
import io.tidemark.testing.TestCommitTable;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException;
import org.apache.hadoop.hbase.client.Row;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The guard itself, with raw marked puts (the commit table's own behaviour on a guarded table is the contract, in
 * GuardedCommitTableTest): a decision is never overwritten by a different one, and a re-sent identical decision goes
 * through.
 */
class CommitRecordGuardTest {

    private static final byte[] TRUE = {1};

    private static TestCommitTable table;

    @BeforeAll
    static void createTable() throws Exception {
        table = TestCommitTable.create("guardtest:commits", 1, true);
    }

    @AfterAll
    static void dropTable() throws Exception {
        table.drop();
    }

    @Test
    void anIdenticalMarkedPutGoesThrough() throws Exception {
        long start = 11 * Timestamps.TSO_STEP;
        try (Table raw = SharedMiniCluster.connection().getTable(table.name())) {
            raw.batch(List.of(markedCommit(start, start + 1)), new Object[1]);
            Object[] again = new Object[1];
            raw.batch(List.of(markedCommit(start, start + 1)), again);
            assertInstanceOf(Result.class, again[0], "accepted");
        }
        assertEquals(start + 1, table.commitTable().lookup(start).commitTimestamp());
    }

    @Test
    void aDifferentDecisionIsRefused() throws Exception {
        long start = 12 * Timestamps.TSO_STEP;
        table.commitTable().invalidate(start);
        try (Table raw = SharedMiniCluster.connection().getTable(table.name())) {
            Object[] results = new Object[1];
            assertThrows(RetriesExhaustedWithDetailsException.class,
                    () -> raw.batch(List.<Row>of(markedCommit(start, start + 1)), results));
            Throwable refused = assertInstanceOf(Throwable.class, results[0]);
            assertTrue(refused.getMessage().contains(CommitTableSchema.ALREADY_DECIDED), refused.getMessage());
        }
        assertTrue(table.commitTable().lookup(start).isInvalidated());
    }

    @Test
    void anotherCommitTimestampIsRefused() throws Exception {
        long start = 13 * Timestamps.TSO_STEP;
        try (Table raw = SharedMiniCluster.connection().getTable(table.name())) {
            raw.batch(List.of(markedCommit(start, start + 1)), new Object[1]);
            assertThrows(RetriesExhaustedWithDetailsException.class,
                    () -> raw.batch(List.<Row>of(markedCommit(start, start + 2)), new Object[1]));
        }
        assertEquals(start + 1, table.commitTable().lookup(start).commitTimestamp());
    }

    @Test
    void aBatchRefusesExactlyItsPutsOverADifferentDecision() throws Exception {
        long resent = 21 * Timestamps.TSO_STEP;
        long invalidated = 22 * Timestamps.TSO_STEP;
        long untouched = 23 * Timestamps.TSO_STEP;
        long fresh = 24 * Timestamps.TSO_STEP;
        long otherCommit = 25 * Timestamps.TSO_STEP;
        long freshAfterAll = 26 * Timestamps.TSO_STEP;
        table.commitTable().invalidate(invalidated);
        try (Table raw = SharedMiniCluster.connection().getTable(table.name())) {
            raw.batch(List.of(markedCommit(resent, resent + 1), markedCommit(untouched, untouched + 1),
                    markedCommit(otherCommit, otherCommit + 1)), new Object[3]);
            // Rows that hold decisions mixed with rows that do not, in a region holding a decided row the batch
            // does not touch.
            List<Row> batch = List.of(markedCommit(freshAfterAll, freshAfterAll + 1),
                    markedCommit(otherCommit, otherCommit + 2), markedCommit(fresh, fresh + 1),
                    markedCommit(invalidated, invalidated + 1), markedCommit(resent, resent + 1));
            Object[] results = new Object[batch.size()];
            assertThrows(RetriesExhaustedWithDetailsException.class, () -> raw.batch(batch, results));
            assertInstanceOf(Result.class, results[0], "fresh row after every stored one accepted");
            assertInstanceOf(Throwable.class, results[1], "other commit timestamp refused");
            assertInstanceOf(Result.class, results[2], "fresh row between stored ones accepted");
            assertInstanceOf(Throwable.class, results[3], "invalidated row refused");
            assertInstanceOf(Result.class, results[4], "re-sent identical decision accepted");
        }
        assertEquals(freshAfterAll + 1, table.commitTable().lookup(freshAfterAll).commitTimestamp());
        assertEquals(otherCommit + 1, table.commitTable().lookup(otherCommit).commitTimestamp());
        assertEquals(fresh + 1, table.commitTable().lookup(fresh).commitTimestamp());
        assertTrue(table.commitTable().lookup(invalidated).isInvalidated());
        assertEquals(resent + 1, table.commitTable().lookup(resent).commitTimestamp());
        assertEquals(untouched + 1, table.commitTable().lookup(untouched).commitTimestamp());
    }

    private static Put markedCommit(long start, long commit) {
        Put put = new Put(table.commitTable().schema().rowKey(start)).addColumn(CommitTableSchema.FAMILY,
                CommitTableSchema.COMMIT_QUALIFIER, Bytes.toBytes(commit));
        put.setAttribute(CommitTableSchema.PUT_IF_ABSENT_ATTRIBUTE, TRUE);
        return put;
    }
}
