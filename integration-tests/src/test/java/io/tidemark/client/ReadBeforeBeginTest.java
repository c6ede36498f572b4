package io.tidemark.client;

import io.tidemark.table.TableFeature;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.TestCluster;
import io.tidemark.testing.faults.LostReplies;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.util.EnumSet;
import java.util.concurrent.TimeUnit;

import static io.tidemark.client.ManagerCounts.declines;
import static io.tidemark.client.ManagerCounts.tsoBegins;
import static io.tidemark.client.ManagerCounts.tsoCommits;
import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Read-modify-write without a BEGIN (docs/architecture.md): with lazy begin, a transaction's first read of a table
 * with the fast path is the row's latest committed state, read by its region; a transaction that then writes that row
 * (and rows of its region only) commits there while the row still has the version it read, with no TSO round trip.
 * Otherwise it begins at the TSO, and aborts if the row no longer reads the same at its start timestamp: no update is
 * lost, and what it read is always what one snapshot shows.
 */
@ExtendWith(SharedTestClusters.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ReadBeforeBeginTest {

    private static final byte[] Q = Bytes.toBytes("q");

    private static TestCluster env;
    /** Writes kept until commit, single-region commits, lazy begin. */
    private static TransactionManager lazy;
    /** The shared cluster's manager: begins at once, sends every write at once, commits through the TSO. */
    private static TransactionManager generic;

    @BeforeAll
    static void start(TestCluster shared) {
        env = shared;
        lazy = LazyBegin.manager(env);
        generic = env.tm;
    }

    @AfterAll
    static void stop() {
        lazy.close();
    }

    @Test
    void aReadModifyWriteOfOneRowCommitsInItsRegionWithoutAnyTsoRoundTrip() throws Exception {
        TableName table = fastPathTable("rmw");
        write(table, "counter", "1");
        long begins = tsoBegins(lazy);
        long commits = tsoCommits(lazy);
        Transaction tx = lazy.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            String read = Bytes.toString(t.get(tx, new Get(row("counter"))).getValue(F, Q));
            assertEquals("1", read, "the latest committed value");
            t.put(tx, new Put(row("counter")).addColumn(F, Q, value(Integer.parseInt(read) + 1 + "")));
        }
        lazy.commit(tx);

        assertEquals(TransactionState.COMMITTED, tx.state());
        assertEquals(begins, tsoBegins(lazy), "no BEGIN");
        assertEquals(commits, tsoCommits(lazy), "no COMMIT");
        assertTrue(Timestamps.isFastPathVersion(tx.commitTimestamp()), "minted by the region");
        assertEquals(tx.commitTimestamp(), tx.startTimestamp(), "it serialises at its commit version");
        assertEquals("2", valueOf(table, "counter"));
    }

    @Test
    void ofTwoReadModifyWritesOfOneRowOnlyOneCommitsAndNoUpdateIsLost() throws Exception {
        TableName table = fastPathTable("lost-update");
        write(table, "counter", "10");
        Transaction first = lazy.begin();
        Transaction second = lazy.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            assertEquals("10", Bytes.toString(t.get(first, new Get(row("counter"))).getValue(F, Q)));
            assertEquals("10", Bytes.toString(t.get(second, new Get(row("counter"))).getValue(F, Q)));
            t.put(first, new Put(row("counter")).addColumn(F, Q, value("11")));
            t.put(second, new Put(row("counter")).addColumn(F, Q, value("11")));
        }
        lazy.commit(first);
        long declined = declines(lazy);
        TransactionAbortedException aborted = assertThrows(TransactionAbortedException.class,
                () -> lazy.commit(second));
        assertEquals(TransactionAbortedException.Reason.READ_CHANGED, aborted.reason());
        assertEquals(declined + 1, declines(lazy), "the region declined: the row has a newer version");
        assertEquals(TransactionState.ROLLED_BACK, second.state());
        assertEquals("11", valueOf(table, "counter"));
    }

    @Test
    void aCommitThroughTheTsoAfterTheReadAbortsTheReadModifyWrite() throws Exception {
        TableName table = fastPathTable("tso-writer");
        write(table, "r", "before");
        Transaction tx = lazy.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            assertEquals("before", Bytes.toString(t.get(tx, new Get(row("r"))).getValue(F, Q)));
            write(table, "r", "through the TSO");
            t.put(tx, new Put(row("r")).addColumn(F, Q, value("over it")));
        }
        TransactionAbortedException aborted = assertThrows(TransactionAbortedException.class,
                () -> lazy.commit(tx));
        assertEquals(TransactionAbortedException.Reason.READ_CHANGED, aborted.reason());
        assertEquals("through the TSO", valueOf(table, "r"));
    }

    @Test
    void aSecondReadBeginsTheTransactionWhichKeepsTheFirstReadWhileTheRowIsUnchanged() throws Exception {
        TableName table = fastPathTable("second-read");
        write(table, "a", "a0");
        write(table, "b", "b0");
        long begins = tsoBegins(lazy);
        Transaction tx = lazy.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            assertEquals("a0", Bytes.toString(t.get(tx, new Get(row("a"))).getValue(F, Q)));
            assertEquals(begins, tsoBegins(lazy), "the first read needs no BEGIN");
            assertEquals("b0", Bytes.toString(t.get(tx, new Get(row("b"))).getValue(F, Q)));
            assertEquals(begins + 1, tsoBegins(lazy), "the second began it");
            t.put(tx, new Put(row("a")).addColumn(F, Q, value("a1")));
        }
        lazy.commit(tx);
        assertTrue(Timestamps.isTsoTimestamp(tx.startTimestamp()), "it began at the TSO");
        assertEquals("a1", valueOf(table, "a"));
    }

    @Test
    void aSecondReadAfterTheFirstRowChangedAbortsTheTransaction() throws Exception {
        TableName table = fastPathTable("changed");
        write(table, "a", "a0");
        Transaction tx = lazy.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            assertEquals("a0", Bytes.toString(t.get(tx, new Get(row("a"))).getValue(F, Q)));
            write(table, "a", "a1");
            TransactionAbortedException aborted = assertThrows(TransactionAbortedException.class,
                    () -> t.get(tx, new Get(row("b"))));
            assertEquals(TransactionAbortedException.Reason.READ_CHANGED, aborted.reason(),
                    "no snapshot shows a0 in row a and what row b holds now");
        }
        assertEquals(TransactionState.ROLLED_BACK, tx.state());
    }

    @Test
    void aTransactionThatOnlyReadOneRowCommitsAtTheRowsVersionWithoutTheTso() throws Exception {
        TableName table = fastPathTable("read-only");
        Transaction writer = lazy.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            t.put(writer, new Put(row("x")).addColumn(F, Q, value("x1")));
        }
        lazy.commit(writer);
        long begins = tsoBegins(lazy);
        Transaction reader = lazy.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            assertEquals("x1", Bytes.toString(t.get(reader, new Get(row("x"))).getValue(F, Q)));
        }
        lazy.commit(reader);
        assertEquals(begins, tsoBegins(lazy), "no BEGIN");
        assertEquals(writer.commitTimestamp(), reader.commitTimestamp(), "at the version of the row it read");
        assertEquals(reader.commitTimestamp(), reader.startTimestamp());
    }

    @Test
    void aTransactionThatWritesOtherRowsThanItReadBeginsAndCommitsWhileTheReadHolds() throws Exception {
        TableName table = fastPathTable("other-row");
        write(table, "source", "s");
        long begins = tsoBegins(lazy);
        Transaction tx = lazy.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            byte[] read = t.get(tx, new Get(row("source"))).getValue(F, Q);
            t.put(tx, new Put(row("target")).addColumn(F, Q, read));
        }
        lazy.commit(tx);
        assertEquals(begins + 1, tsoBegins(lazy), "a region checks only rows it writes: the commit began it");
        assertEquals("s", valueOf(table, "target"));
    }

    /**
     * HBase re-sends a commit whose reply was lost: the re-send finds the commit's operation record before it looks at
     * the row's version (which the commit itself changed), so it answers the commit instead of declining it, and the
     * transaction is not aborted for a change it made.
     */
    @Test
    void aLostReplyOfAReadModifyWriteIsAnsweredFromItsRecord() throws Exception {
        TableName table = env.createTable("lost", EnumSet.of(TableFeature.FAST_PATH));
        LostReplies.attachTo(TestCluster.connection(), table);
        LazyBegin.warmUp(lazy, table);
        write(table, "l", "before");
        Transaction tx = lazy.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            assertEquals("before", Bytes.toString(t.get(tx, new Get(row("l"))).getValue(F, Q)));
            t.put(tx, new Put(row("l")).addColumn(F, Q, value("once")));
        }
        long begins = tsoBegins(lazy);
        LostReplies.armNext(table, 1);
        try {
            lazy.commit(tx);
        } finally {
            LostReplies.disarm(table);
        }
        assertEquals(1, LostReplies.lost(table), "the commit was applied and its reply lost");
        assertEquals(TransactionState.COMMITTED, tx.state());
        assertEquals(begins, tsoBegins(lazy), "answered by the re-send: no BEGIN");
        try (Table raw = TestCluster.connection().getTable(table)) {
            Result stored = raw.get(new Get(row("l")).addColumn(F, Q).readAllVersions());
            assertEquals(tx.commitTimestamp(), stored.rawCells()[0].getTimestamp(), "written once, at its version");
        }
        assertEquals("once", valueOf(table, "l"));
    }

    @Test
    void aReadThatMeetsAnUndecidedWriterBeginsAndReadsAtItsSnapshot() throws Exception {
        TableName table = fastPathTable("pending");
        write(table, "p", "committed");
        Transaction pending = generic.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            t.put(pending, new Put(row("p")).addColumn(F, Q, value("undecided")));
            long begins = tsoBegins(lazy);
            Transaction tx = lazy.begin();
            assertEquals("committed", Bytes.toString(t.get(tx, new Get(row("p"))).getValue(F, Q)));
            assertEquals(begins + 1, tsoBegins(lazy), "the region would not read for update: it began");
            lazy.commit(tx);
        }
        generic.rollback(pending);
    }

    private static TableName fastPathTable(String prefix) throws IOException {
        return LazyBegin.fastPathTable(env, lazy, prefix);
    }

    /** Commits {@code value} into {@code row} through the TSO. */
    private static void write(TableName table, String row, String value) throws IOException {
        Transaction tx = generic.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            t.put(tx, new Put(row(row)).addColumn(F, Q, value(value)));
        }
        generic.commit(tx);
    }

    private static String valueOf(TableName table, String row) throws IOException {
        Transaction reader = generic.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            byte[] v = t.get(reader, new Get(row(row))).getValue(F, Q);
            generic.commit(reader);
            return v == null ? "(none)" : Bytes.toString(v);
        }
    }

    private static byte[] row(String row) {
        return Bytes.toBytes(row);
    }

    private static byte[] value(String value) {
        return Bytes.toBytes(value);
    }
}
