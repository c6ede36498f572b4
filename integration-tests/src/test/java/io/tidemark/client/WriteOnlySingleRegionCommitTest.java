package io.tidemark.client;

import io.tidemark.encoding.CellEncoding;
import io.tidemark.fastpath.IdempotencyKey;
import io.tidemark.singleregion.SingleRegionCommitRequest;
import io.tidemark.table.BindingMismatchException;
import io.tidemark.table.TableFeature;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.TestCluster;
import io.tidemark.testing.faults.LostReplies;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.security.SecureRandom;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.tidemark.client.ManagerCounts.declines;
import static io.tidemark.client.ManagerCounts.singleRegionCommits;
import static io.tidemark.client.ManagerCounts.tsoBegins;
import static io.tidemark.client.ManagerCounts.tsoCommits;
import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Write-only single-region commit (docs/architecture.md, "Write-only single-region commit"): with lazy begin, a
 * transaction that only put rows of one region commits there without any TSO round trip, against every kind of
 * writer and reader, in its client's order, and exactly once under a lost reply; anything that needs a snapshot begins
 * it at the TSO first.
 */
@ExtendWith(SharedTestClusters.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class WriteOnlySingleRegionCommitTest {

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
    void aWriteOnlyTransactionCommitsInItsRegionWithoutAnyTsoRoundTrip() throws Exception {
        TableName table = fastPathTable("write-only");
        long begins = tsoBegins(lazy);
        long commits = tsoCommits(lazy);
        Transaction tx = lazy.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            t.put(tx, new Put(row("a")).addColumn(F, Q, value("a1")));
            t.put(tx, new Put(row("b")).addColumn(F, Q, value("b1")));
        }
        lazy.commit(tx);

        assertEquals(TransactionState.COMMITTED, tx.state());
        assertEquals(begins, tsoBegins(lazy), "no BEGIN");
        assertEquals(commits, tsoCommits(lazy), "no COMMIT");
        long version = tx.commitTimestamp();
        assertTrue(Timestamps.isFastPathVersion(version), "minted by the region: " + version);
        assertEquals(version, tx.startTimestamp(), "it read nothing: it serialises at its commit version");
        assertEquals(List.of("a1", "b1"), values(table, "a", "b"));
        try (Table raw = TestCluster.connection().getTable(table)) {
            Result stored = raw.get(new Get(row("a")).addColumn(F, Q).addColumn(F, CellEncoding.shadowQualifier(Q))
                    .readAllVersions());
            assertEquals(2, stored.size(), "the data cell and its shadow cell, no start mark: " + stored);
            for (Cell c : stored.rawCells()) {
                assertEquals(version, c.getTimestamp(), "at the commit version: " + c);
            }
        }
    }

    @Test
    void aWriteOnlyCommitIsOrderedAfterItsClientsEarlierCommits() throws Exception {
        TableName quiet = fastPathTable("quiet");
        TableName busy = fastPathTable("busy");
        // Many later timestamps pass while the quiet table's region sees none of them.
        for (int i = 0; i < 5; i++) {
            generic.commit(generic.begin());
        }
        Transaction earlier = lazy.begin();
        earlier.startTimestamp(); // begins it at the TSO
        try (TTable t = new TTable(TestCluster.connection(), busy)) {
            t.put(earlier, new Put(row("x")).addColumn(F, Q, value("earlier")));
        }
        lazy.commit(earlier);
        Transaction later = lazy.begin();
        try (TTable t = new TTable(TestCluster.connection(), quiet)) {
            t.put(later, new Put(row("y")).addColumn(F, Q, value("later")));
        }
        lazy.commit(later);
        assertTrue(later.commitTimestamp() > earlier.commitTimestamp(), "a client's later commit is ordered after"
                + " its earlier one: " + later.commitTimestamp() + " after " + earlier.commitTimestamp());
    }

    @Test
    void aReaderSeesAWriteOnlyCommitWholeOrNotAtAll() throws Exception {
        TableName table = fastPathTable("atomic");
        Transaction reader = generic.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            assertTrue(t.get(reader, new Get(row("a"))).isEmpty());
            Transaction tx = lazy.begin();
            t.put(tx, new Put(row("a")).addColumn(F, Q, value("a1")));
            t.put(tx, new Put(row("b")).addColumn(F, Q, value("b1")));
            lazy.commit(tx);
            assertTrue(tx.commitTimestamp() > reader.startTimestamp(), "minted above the read clock");
            assertTrue(t.get(reader, new Get(row("b"))).isEmpty(), "a snapshot that read the region never changes");
        }
        generic.commit(reader);
        assertEquals(List.of("a1", "b1"), values(table, "a", "b"));
    }

    @Test
    void aTransactionThatReadTheRowCannotOverwriteAWriteOnlyCommit() throws Exception {
        TableName table = fastPathTable("lost-update");
        Transaction reader = generic.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            assertTrue(t.get(reader, new Get(row("c"))).isEmpty());
            Transaction tx = lazy.begin();
            t.put(tx, new Put(row("c")).addColumn(F, Q, value("write-only")));
            lazy.commit(tx);
            assertThrows(TransactionAbortedException.class,
                    () -> t.put(reader, new Put(row("c")).addColumn(F, Q, value("lost update"))));
        }
        assertEquals(List.of("write-only"), values(table, "c"));
    }

    @Test
    void aPendingWriterMakesTheRegionDeclineAndTheTransactionBeginsAndCommitsThroughTheTso() throws Exception {
        TableName table = fastPathTable("pending");
        Transaction pending = generic.begin();
        Transaction tx = lazy.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            t.put(pending, new Put(row("p")).addColumn(F, Q, value("pending")));
            t.put(tx, new Put(row("p")).addColumn(F, Q, value("committed")));
        }
        long declined = declines(lazy);
        long begins = tsoBegins(lazy);
        lazy.commit(tx);
        assertEquals(declined + 1, declines(lazy), "the region never commits over an undecided writer");
        assertEquals(begins + 1, tsoBegins(lazy), "declined, it began at the TSO and committed there");
        assertEquals(TransactionState.COMMITTED, tx.state());
        assertTrue(tx.startTimestamp() < tx.commitTimestamp());
        TransactionAbortedException aborted = assertThrows(TransactionAbortedException.class,
                () -> generic.commit(pending));
        assertEquals(TransactionAbortedException.Reason.CONFLICT, aborted.reason());
        assertEquals(List.of("committed"), values(table, "p"));
    }

    @Test
    void aLostReplyIsAnsweredFromTheRecordAndTheWriteOnlyCommitCommitsOnce() throws Exception {
        TableName table = env.createTable("lost", EnumSet.of(TableFeature.FAST_PATH));
        LostReplies.attachTo(TestCluster.connection(), table);
        LazyBegin.warmUp(lazy, table);
        Transaction tx = lazy.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            t.put(tx, new Put(row("l")).addColumn(F, Q, value("once")));
        }
        LostReplies.armNext(table, 1);
        try {
            lazy.commit(tx);
        } finally {
            LostReplies.disarm(table);
        }
        assertEquals(1, LostReplies.lost(table), "the commit was applied and its reply lost");
        assertEquals(TransactionState.COMMITTED, tx.state());
        try (Table raw = TestCluster.connection().getTable(table)) {
            Result stored = raw.get(new Get(row("l")).addColumn(F, Q).readAllVersions());
            assertEquals(1, stored.size(), "HBase's re-send found the commit and wrote nothing again");
            assertEquals(tx.commitTimestamp(), stored.rawCells()[0].getTimestamp());
        }
    }

    @Test
    void aRegionOpenedSinceItsLastTsoTimestampMintsAfterOneFreshTimestamp() throws Exception {
        TableName table = fastPathTable("reopened");
        try (Admin admin = TestCluster.connection().getAdmin()) {
            RegionInfo region = admin.getRegions(table).get(0);
            admin.unassign(region.getRegionName());
            admin.assign(region.getRegionName());
        }
        long inRegion = singleRegionCommits(lazy);
        Transaction tx = lazy.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            t.put(tx, new Put(row("o")).addColumn(F, Q, value("after reopen")));
        }
        lazy.commit(tx);
        assertEquals(inRegion + 1, singleRegionCommits(lazy), "committed in the region after a fresh timestamp");
        assertEquals(List.of("after reopen"), values(table, "o"));
    }

    @Test
    void aReadOrADeleteBeginsTheTransactionAtTheTsoAndItsEarlierPutsMoveToItsStart() throws Exception {
        TableName table = fastPathTable("begins");
        long begins = tsoBegins(lazy);
        Transaction tx = lazy.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            t.put(tx, new Put(row("m")).addColumn(F, Q, value("mine")));
            assertEquals(begins, tsoBegins(lazy), "a put does not begin it");
            assertArrayEquals(value("mine"), t.get(tx, new Get(row("m"))).getValue(F, Q),
                    "the read began it, and sees the put made before");
            assertEquals(begins + 1, tsoBegins(lazy));
            t.delete(tx, new Delete(row("n")));
        }
        lazy.commit(tx);
        assertTrue(Timestamps.isTsoTimestamp(tx.startTimestamp()), "it began at the TSO: " + tx.startTimestamp());
        assertTrue(tx.commitTimestamp() > tx.startTimestamp());
        assertEquals(List.of("mine"), values(table, "m"));
    }

    @Test
    void aRolledBackTransactionThatNeverBeganLeavesNothing() throws Exception {
        TableName table = fastPathTable("rollback");
        long begins = tsoBegins(lazy);
        Transaction tx = lazy.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            t.put(tx, new Put(row("r")).addColumn(F, Q, value("never")));
        }
        lazy.rollback(tx);
        assertEquals(begins, tsoBegins(lazy));
        assertEquals(Timestamps.NONE, tx.startTimestamp(), "it ended without beginning");
        try (Table raw = TestCluster.connection().getTable(table)) {
            assertTrue(raw.get(new Get(row("r"))).isEmpty());
        }
        assertNull(valueOf(table, "r"));
    }

    /**
     * A hostile client's floor far above every TSO timestamp would push the row's versions past every later
     * transaction's start, and every generic writer of it would be refused: the region refuses the claim.
     */
    @Test
    void aWriteOnlyCommitClaimingAFloorNoTsoHandedOutIsRefused() throws Exception {
        TableName table = fastPathTable("future-floor");
        long future = generic.begin().startTimestamp() + (1L << 40) * Timestamps.TSO_STEP;
        Put write = new Put(row("f")).addColumn(F, Q, Timestamps.NONE, value("from the future"));
        try (Table raw = TestCluster.connection().getTable(table);
             RegionLocator locator = TestCluster.connection().getRegionLocator(table)) {
            byte[] stream = new byte[IdempotencyKey.STREAM_ID_LENGTH];
            new SecureRandom().nextBytes(stream);
            SingleRegionCommitRequest forged = SingleRegionCommitRequest.writeOnly(future, List.of(write))
                    .region(locator.getRegionLocation(row("f")).getRegion().getEncodedName())
                    .idempotencyKey(new IdempotencyKey(stream, 1)).operationTimeoutMillis(60_000).build();
            assertThrows(BindingMismatchException.class, () -> raw.get(forged.toGet()));
        }
        assertNull(valueOf(table, "f"));
    }

    private static TableName fastPathTable(String prefix) throws IOException {
        return LazyBegin.fastPathTable(env, lazy, prefix);
    }

    /** The committed values of column q of {@code rows}, as one new transaction reads them. */
    private static List<String> values(TableName table, String... rows) throws IOException {
        Transaction reader = generic.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            String[] values = new String[rows.length];
            for (int i = 0; i < rows.length; i++) {
                byte[] v = t.get(reader, new Get(row(rows[i]))).getValue(F, Q);
                values[i] = v == null ? "(none)" : Bytes.toString(v);
            }
            generic.commit(reader);
            return List.of(values);
        }
    }

    private static String valueOf(TableName table, String row) throws IOException {
        String v = values(table, row).get(0);
        return v.equals("(none)") ? null : v;
    }

    private static byte[] row(String row) {
        return Bytes.toBytes(row);
    }

    private static byte[] value(String value) {
        return Bytes.toBytes(value);
    }
}
