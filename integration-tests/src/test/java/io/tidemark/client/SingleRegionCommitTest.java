package io.tidemark.client;

import io.tidemark.client.fastpath.FastPathTable;
import io.tidemark.encoding.CellEncoding;
import io.tidemark.fastpath.IdempotencyKey;
import io.tidemark.singleregion.SingleRegionCommitDeclinedException;
import io.tidemark.singleregion.SingleRegionCommitRequest;
import io.tidemark.table.BindingMismatchException;
import io.tidemark.table.TableFeature;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.TestCluster;
import io.tidemark.testing.faults.DuplicateDelivery;
import io.tidemark.testing.faults.LostReplies;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
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
import static io.tidemark.client.ManagerCounts.tsoCommits;
import static io.tidemark.testing.TestCluster.F;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Single-region commit (docs/architecture.md, "Single-region commit"): a transaction whose writes all fall in one
 * region of a fast-path table commits with one request to that region, each rule of the region's check against every
 * kind of writer, the fallbacks to the TSO, and exactly-once under lost and duplicated replies.
 */
@ExtendWith(SharedTestClusters.class)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SingleRegionCommitTest {

    private static final byte[] Q = Bytes.toBytes("q");
    private static final byte[] R = Bytes.toBytes("r");

    private static TestCluster env;
    /** The client's defaults: writes kept until commit, single-region commits. */
    private static TransactionManager tm;
    /** Commits only through the TSO, sending every write at once (the shared cluster's manager): generic writers. */
    private static TransactionManager generic;

    @BeforeAll
    static void start(TestCluster shared) {
        env = shared;
        tm = env.managerBuilder().config(env.configWith(TestCluster.KEPT_WRITES)).build();
        generic = env.tm;
    }

    @AfterAll
    static void stop() {
        tm.close();
    }

    @Test
    void aTransactionWritingOneRegionCommitsWithOneRequestAndNoTsoCommit() throws Exception {
        TableName table = fastPathTable("one");
        long tsoCommits = tsoCommits(tm);
        long inRegion = singleRegionCommits(tm);
        Transaction tx = tm.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            t.put(tx, new Put(row("a")).addColumn(F, Q, value("a1")));
            t.put(tx, new Put(row("b")).addColumn(F, Q, value("b1")).addColumn(F, R, value("b2")));
            t.delete(tx, new Delete(row("c")).addColumns(F, Q));
        }
        tm.commit(tx);

        assertEquals(TransactionState.COMMITTED, tx.state());
        assertEquals(inRegion + 1, singleRegionCommits(tm));
        assertEquals(tsoCommits, tsoCommits(tm), "no COMMIT went to the TSO");
        long version = tx.commitTimestamp();
        assertTrue(Timestamps.isFastPathVersion(version) && version > tx.startTimestamp(),
                "committed at a version minted above its snapshot: " + version);
        assertFalse(env.commitTable.lookup(tx.startTimestamp()).isCommitted(), "no commit record");
        Transaction later = tm.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            assertArrayEquals(value("a1"), t.get(later, new Get(row("a"))).getValue(F, Q));
            Result b = t.get(later, new Get(row("b")));
            assertArrayEquals(value("b1"), b.getValue(F, Q));
            assertArrayEquals(value("b2"), b.getValue(F, R));
        }
        tm.commit(later);
        // Data and shadow cells at the commit version, in HBase: committed for every reader, with no commit record.
        try (Table raw = TestCluster.connection().getTable(table)) {
            Result stored = raw.get(new Get(row("b")).readAllVersions());
            assertEquals(version, stored.getColumnLatestCell(F, Q).getTimestamp());
            assertEquals(version, Bytes.toLong(stored.getValue(F, CellEncoding.shadowQualifier(R))));
        }
    }

    @Test
    void writesAreKeptUntilCommitAndAReadOfTheTransactionSeesThem() throws Exception {
        TableName table = fastPathTable("ryow");
        Transaction other = tm.begin();
        Transaction tx = tm.begin();
        try (TTable t = new TTable(TestCluster.connection(), table);
             Table raw = TestCluster.connection().getTable(table)) {
            t.put(tx, new Put(row("kept")).addColumn(F, Q, value("mine")));
            t.put(tx, new Put(row("read")).addColumn(F, Q, value("first")));
            t.put(tx, new Put(row("read")).addColumn(F, Q, value("second")));
            assertTrue(raw.get(new Get(row("kept"))).isEmpty(), "nothing is in HBase before a read needs it");
            assertTrue(raw.get(new Get(row("read"))).isEmpty());

            assertArrayEquals(value("second"), t.get(tx, new Get(row("read"))).getValue(F, Q),
                    "a read sees the transaction's own newest write");
            assertFalse(raw.get(new Get(row("read"))).isEmpty(), "the read's row was sent first");
            assertTrue(raw.get(new Get(row("kept"))).isEmpty(), "rows the read cannot see stay kept");
            try (ResultScanner scan = t.getScanner(tx, new Scan().withStartRow(row("kept"))
                    .withStopRow(row("read"), true))) {
                assertEquals(2, count(scan), "a scan sees every own write");
            }
            t.delete(tx, new Delete(row("kept")));
            assertTrue(t.get(tx, new Get(row("kept"))).isEmpty(), "an own delete hides the own put");
            assertTrue(t.get(other, new Get(row("read"))).isEmpty(), "another snapshot never sees them");
            tm.commit(other);
        }
        long tsoCommits = tsoCommits(tm);
        tm.commit(tx);
        assertEquals(tsoCommits + 1, tsoCommits(tm), "writes sent before commit commit through the TSO");
        assertEquals(List.of("second"), values(table, "read"));
        assertEquals(List.of(), values(table, "kept"));
    }

    @Test
    void aWriteCommittedAfterTheSnapshotMakesTheRegionDeclineAndTheTsoDecides() throws Exception {
        TableName table = fastPathTable("generic");
        Transaction tx = tm.begin();
        Transaction sameCell = generic.begin();
        Transaction otherCell = generic.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            t.put(sameCell, new Put(row("x")).addColumn(F, Q, value("generic")));
            t.put(otherCell, new Put(row("y")).addColumn(F, R, value("generic")));
            generic.commit(sameCell);
            generic.commit(otherCell);
            t.put(tx, new Put(row("x")).addColumn(F, Q, value("lost update")));
        }
        long declined = declines(tm);
        TransactionAbortedException aborted = assertThrows(TransactionAbortedException.class,
                () -> tm.commit(tx));
        assertEquals(TransactionAbortedException.Reason.CONFLICT, aborted.reason());
        assertEquals(declined + 1, declines(tm));
        assertEquals(List.of("generic"), values(table, "x"));

        // The region checks rows; the TSO cells: another column of a row written since is no conflict.
        Transaction anotherColumn = tm.begin();
        Transaction writesQ = generic.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            t.put(writesQ, new Put(row("y")).addColumn(F, R, value("r2")));
            generic.commit(writesQ);
            t.put(anotherColumn, new Put(row("y")).addColumn(F, Q, value("q")));
        }
        tm.commit(anotherColumn);
        assertEquals(declined + 2, declines(tm));
        assertEquals(TransactionState.COMMITTED, anotherColumn.state());
    }

    @Test
    void aPendingWriterMakesTheRegionDeclineAndTheTsoDecides() throws Exception {
        TableName table = fastPathTable("pending");
        Transaction pending = generic.begin();
        Transaction tx = tm.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            t.put(pending, new Put(row("p")).addColumn(F, Q, value("pending")));
            t.put(tx, new Put(row("p")).addColumn(F, Q, value("committed")));
        }
        long declined = declines(tm);
        tm.commit(tx);
        assertEquals(declined + 1, declines(tm), "the region never commits over an undecided writer");
        assertEquals(TransactionState.COMMITTED, tx.state());
        TransactionAbortedException aborted = assertThrows(TransactionAbortedException.class,
                () -> generic.commit(pending));
        assertEquals(TransactionAbortedException.Reason.CONFLICT, aborted.reason());
        assertEquals(List.of("committed"), values(table, "p"));
    }

    @Test
    void aFastPathWriteAfterTheSnapshotAbortsTheTransaction() throws Exception {
        TableName table = fastPathTable("fastpath");
        Transaction tx = tm.begin();
        try (TTable t = new TTable(TestCluster.connection(), table); FastPathTable fp = env.fastPath(table)) {
            // A later snapshot reads the region, so the fast-path write below is minted above tx's start.
            Transaction laterReader = tm.begin();
            t.get(laterReader, new Get(row("f")));
            tm.commit(laterReader);
            assertTrue(fp.put(new Put(row("f")).addColumn(F, Q, value("fast"))) > tx.startTimestamp());
            t.put(tx, new Put(row("f")).addColumn(F, Q, value("lost update")));
        }
        TransactionAbortedException aborted = assertThrows(TransactionAbortedException.class,
                () -> tm.commit(tx));
        assertEquals(TransactionAbortedException.Reason.NEWER_FAST_PATH_WRITE, aborted.reason());
        assertEquals(List.of("fast"), values(table, "f"));
    }

    @Test
    void anotherSingleRegionCommitAfterTheSnapshotAbortsTheTransaction() throws Exception {
        TableName table = fastPathTable("two");
        Transaction first = tm.begin();
        Transaction second = tm.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            t.put(first, new Put(row("s")).addColumn(F, Q, value("first")));
            t.put(second, new Put(row("s")).addColumn(F, Q, value("second")));
        }
        tm.commit(second);
        assertTrue(Timestamps.isFastPathVersion(second.commitTimestamp()));
        TransactionAbortedException aborted = assertThrows(TransactionAbortedException.class,
                () -> tm.commit(first));
        assertEquals(TransactionAbortedException.Reason.NEWER_FAST_PATH_WRITE, aborted.reason());
        assertEquals(List.of("second"), values(table, "s"));

        // And a generic transaction that started before a single-region commit cannot overwrite it either.
        Transaction olderGeneric = generic.begin();
        Transaction third = tm.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            t.put(third, new Put(row("s")).addColumn(F, Q, value("third")));
            tm.commit(third);
            assertThrows(TransactionAbortedException.class,
                    () -> t.put(olderGeneric, new Put(row("s")).addColumn(F, Q, value("lost update"))));
        }
        assertEquals(List.of("third"), values(table, "s"));
    }

    @Test
    void writesSpanningRegionsCommitThroughTheTso() throws Exception {
        TableName table = env.createTable("span", EnumSet.of(TableFeature.FAST_PATH), row("m"));
        warmUp(table);
        long inRegion = singleRegionCommits(tm);
        long tsoCommits = tsoCommits(tm);
        Transaction tx = tm.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            t.put(tx, new Put(row("a")).addColumn(F, Q, value("a")));
            t.put(tx, new Put(row("z")).addColumn(F, Q, value("z")));
        }
        tm.commit(tx);
        assertEquals(inRegion, singleRegionCommits(tm));
        assertEquals(tsoCommits + 1, tsoCommits(tm));
        assertEquals(List.of("a"), values(table, "a"));
        assertEquals(List.of("z"), values(table, "z"));
    }

    @Test
    void aTableWithoutTheFastPathCommitsThroughTheTso() throws Exception {
        TableName table = env.createTransactionalTable("nofast");
        long inRegion = singleRegionCommits(tm);
        Transaction tx = tm.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            t.put(tx, new Put(row("a")).addColumn(F, Q, value("a")));
        }
        tm.commit(tx);
        assertEquals(inRegion, singleRegionCommits(tm));
        assertEquals(List.of("a"), values(table, "a"));
    }

    @Test
    void aRegionThatSplitAfterItWasLocatedDeclinesAndTheTsoCommits() throws Exception {
        TableName table = fastPathTable("split");
        Transaction tx = tm.begin();
        try (TTable t = new TTable(TestCluster.connection(), table);
             RegionLocator locator = TestCluster.connection().getRegionLocator(table)) {
            t.put(tx, new Put(row("a")).addColumn(F, Q, value("a")));
            t.put(tx, new Put(row("z")).addColumn(F, Q, value("z")));
            locator.getRegionLocation(row("a"));
            splitAt(table, row("m"));
        }
        long declined = declines(tm);
        tm.commit(tx);
        assertEquals(declined + 1, declines(tm), "the daughter region refuses rows it was not asked for");
        assertEquals(TransactionState.COMMITTED, tx.state());
        assertEquals(List.of("a"), values(table, "a"));
        assertEquals(List.of("z"), values(table, "z"));
    }

    @Test
    void aRegionReopenedAfterTheTransactionBeganDeclinesButLaterTransactionsCommitInIt() throws Exception {
        TableName table = fastPathTable("reopen");
        Transaction before = tm.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            t.put(before, new Put(row("o")).addColumn(F, Q, value("before")));
        }
        reopen(table);
        long declined = declines(tm);
        tm.commit(before);
        assertEquals(declined + 1, declines(tm), "a region opened since the transaction began may have been"
                + " fenced, which only the TSO knows");
        assertEquals(TransactionState.COMMITTED, before.state());

        long inRegion = singleRegionCommits(tm);
        Transaction after = tm.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            t.put(after, new Put(row("o")).addColumn(F, Q, value("after")));
        }
        tm.commit(after);
        assertEquals(inRegion + 1, singleRegionCommits(tm));
        assertEquals(List.of("after"), values(table, "o"));
    }

    @Test
    void aFenceAndASchemaChangeAbortATransactionBegunBeforeThem() throws Exception {
        TableName table = fastPathTable("fence");
        Transaction tx = tm.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            t.put(tx, new Put(row("d")).addColumn(F, Q, value("before the change")));
        }
        tm.fence(table);
        try (Admin admin = TestCluster.connection().getAdmin()) {
            admin.modifyTable(TableDescriptorBuilder.newBuilder(admin.getDescriptor(table))
                    .setValue("schema-change", "1").build());
        }
        TransactionAbortedException aborted = assertThrows(TransactionAbortedException.class,
                () -> tm.commit(tx));
        assertEquals(TransactionAbortedException.Reason.FENCED, aborted.reason());
        assertEquals(List.of(), values(table, "d"));
    }

    @Test
    void aLostReplyIsAnsweredFromTheRecordAndTheTransactionCommitsOnce() throws Exception {
        TableName table = env.createTable("lost", EnumSet.of(TableFeature.FAST_PATH));
        LostReplies.attachTo(TestCluster.connection(), table);
        warmUp(table);
        Transaction tx = tm.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            t.put(tx, new Put(row("l")).addColumn(F, Q, value("once")));
        }
        LostReplies.armNext(table, 1);
        try {
            tm.commit(tx);
        } finally {
            LostReplies.disarm(table);
        }
        assertEquals(1, LostReplies.lost(table), "the commit was applied and its reply lost");
        assertEquals(TransactionState.COMMITTED, tx.state());
        assertEquals(1, storedVersions(table, "l"), "HBase's re-send found the commit and wrote nothing again");
        assertEquals(tx.commitTimestamp(), storedVersionOf(table, "l"));
    }

    @Test
    void aDuplicatedCommitRequestCommitsOnce() throws Exception {
        TableName table = fastPathTable("twice");
        DuplicateDelivery duplicates = new DuplicateDelivery(operation -> operation instanceof Get
                && SingleRegionCommitRequest.isSingleRegionCommit((Get) operation));
        try (Connection twice = duplicates.wrap(TestCluster.connection());
             TransactionManager throughTwice = TransactionManager.builder(twice)
                     .config(env.configWith(TestCluster.KEPT_WRITES)).build()) {
            Transaction tx = throughTwice.begin();
            try (TTable t = new TTable(twice, table)) {
                t.put(tx, new Put(row("t")).addColumn(F, Q, value("once")));
            }
            throughTwice.commit(tx);
            assertEquals(1, duplicates.duplicates());
            assertEquals(1, singleRegionCommits(throughTwice));
            assertEquals(1, storedVersions(table, "t"));
            assertEquals(tx.commitTimestamp(), storedVersionOf(table, "t"));
        }
    }

    @Test
    void aSettledCommitNeverRunsAndASettleAfterItFindsTheCommit() throws Exception {
        TableName table = fastPathTable("settle");
        long snapshot = tm.begin().startTimestamp();
        try (Table raw = TestCluster.connection().getTable(table)) {
            Put write = new Put(row("k")).addColumn(F, Q, snapshot, value("never"));
            IdempotencyKey first = newKey();
            assertThrows(SingleRegionCommitDeclinedException.class,
                    () -> raw.get(settle(snapshot, row("k"), first).toGet()));
            assertThrows(SingleRegionCommitDeclinedException.class,
                    () -> raw.get(commit(table, snapshot, first, write).toGet()),
                    "the settled commit, arriving late, declines");
            assertTrue(raw.get(new Get(row("k")).addColumn(F, Q)).isEmpty());

            long later = tm.begin().startTimestamp();
            IdempotencyKey second = newKey();
            long version = SingleRegionCommitRequest.committedVersion(raw.get(commit(table, later, second,
                    new Put(row("k")).addColumn(F, Q, later, value("committed"))).toGet()));
            assertEquals(version, SingleRegionCommitRequest.committedVersion(
                    raw.get(settle(later, row("k"), second).toGet())), "settling finds the commit");
        }
        assertEquals(List.of("committed"), values(table, "k"));
    }

    /**
     * A request claiming the start timestamp of another transaction, whose tentative write was left in the row when
     * a reader invalidated it: the start mark would be that write's shadow cell and make it look committed, so the
     * region declines, and readers still do not see the invalidated write.
     */
    @Test
    void aCommitClaimingAnotherWritersStartCannotMakeItsWriteLookCommitted() throws Exception {
        TableName table = fastPathTable("claimed");
        Transaction victim = generic.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            t.put(victim, new Put(row("v")).addColumn(F, Q, value("invalidated")));
        }
        assertTrue(env.commitTable.invalidate(victim.startTimestamp()).isInvalidated());
        long claimed = victim.startTimestamp();
        // A cancelled tombstone: no value of its own at the minted version, so the column's value would come from
        // the cell at the claimed start, if the start mark there made it committed.
        Put cancelled = new Put(row("v")).addColumn(F, CellEncoding.tombstoneQualifier(Q), claimed,
                CellEncoding.TOMBSTONE_CANCELLED);
        SingleRegionCommitDeclinedException declined = null;
        try (Table raw = TestCluster.connection().getTable(table)) {
            raw.get(commit(table, claimed, newKey(), cancelled).toGet());
        } catch (SingleRegionCommitDeclinedException e) {
            declined = e;
        }
        assertEquals(List.of(), values(table, "v"), "the invalidated write stays invisible");
        assertNotNull(declined, "the region declines a start mark over another writer's cell");
        assertTrue(declined.getMessage().contains("start timestamp"), declined.getMessage());
    }

    /** A snapshot no TSO handed out would raise the region's clock above every TSO timestamp: refused, nothing ran. */
    @Test
    void aCommitClaimingAStartNoTsoHandedOutIsRefused() throws Exception {
        TableName table = fastPathTable("future");
        long future = tm.begin().startTimestamp() + (1L << 40) * Timestamps.TSO_STEP;
        try (Table raw = TestCluster.connection().getTable(table)) {
            assertThrows(BindingMismatchException.class, () -> raw.get(commit(table, future, newKey(),
                    new Put(row("f")).addColumn(F, Q, future, value("from the future"))).toGet()));
        }
        assertEquals(List.of(), values(table, "f"));
    }

    @Test
    void aRolledBackTransactionLeavesNothingInHBase() throws Exception {
        TableName table = fastPathTable("rollback");
        Transaction tx = tm.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            t.put(tx, new Put(row("r")).addColumn(F, Q, value("never")));
        }
        tm.rollback(tx);
        try (Table raw = TestCluster.connection().getTable(table)) {
            assertNull(raw.get(new Get(row("r"))).getValue(F, Q));
        }
    }

    /**
     * A new fast-path table whose region has learned its first TSO timestamp: the first transaction committing there
     * began before the region opened, so it declines and commits through the TSO.
     */
    private static TableName fastPathTable(String prefix) throws IOException {
        TableName table = env.createTable(prefix, EnumSet.of(TableFeature.FAST_PATH));
        warmUp(table);
        return table;
    }

    private static void warmUp(TableName table) throws IOException {
        Transaction first = tm.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            t.put(first, new Put(row("warm-up")).addColumn(F, Q, value("warm-up")));
        }
        tm.commit(first);
    }

    private static SingleRegionCommitRequest commit(TableName table, long snapshot, IdempotencyKey key, Put write)
            throws IOException {
        try (RegionLocator locator = TestCluster.connection().getRegionLocator(table)) {
            return SingleRegionCommitRequest.commit(snapshot, List.of(write))
                    .region(locator.getRegionLocation(write.getRow()).getRegion().getEncodedName())
                    .idempotencyKey(key).operationTimeoutMillis(60_000).build();
        }
    }

    private static SingleRegionCommitRequest settle(long snapshot, byte[] anchor, IdempotencyKey key) {
        return SingleRegionCommitRequest.settle(snapshot, anchor).idempotencyKey(key).operationTimeoutMillis(60_000)
                .build();
    }

    private static IdempotencyKey newKey() {
        byte[] stream = new byte[IdempotencyKey.STREAM_ID_LENGTH];
        new SecureRandom().nextBytes(stream);
        return new IdempotencyKey(stream, 1);
    }

    /** The committed values of column q of {@code row}, as a new transaction reads them. */
    private static List<String> values(TableName table, String row) throws IOException {
        Transaction reader = tm.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            byte[] v = t.get(reader, new Get(row(row))).getValue(F, Q);
            tm.commit(reader);
            return v == null ? List.of() : List.of(Bytes.toString(v));
        }
    }

    /** How many data versions of column q the row stores. */
    private static int storedVersions(TableName table, String row) throws IOException {
        try (Table raw = TestCluster.connection().getTable(table)) {
            return raw.get(new Get(row(row)).addColumn(F, Q).readAllVersions()).size();
        }
    }

    private static long storedVersionOf(TableName table, String row) throws IOException {
        try (Table raw = TestCluster.connection().getTable(table)) {
            Cell cell = raw.get(new Get(row(row)).addColumn(F, Q)).getColumnLatestCell(F, Q);
            return cell.getTimestamp();
        }
    }

    private static void splitAt(TableName table, byte[] point) throws Exception {
        try (Admin admin = TestCluster.connection().getAdmin()) {
            admin.split(table, point);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (admin.getRegions(table).size() < 2) {
                assertTrue(System.nanoTime() < deadline, "the split did not finish");
                Thread.sleep(100);
            }
        }
    }

    /** Closes and opens the table's only region again: a new coprocessor instance, a new clock. */
    private static void reopen(TableName table) throws IOException {
        try (Admin admin = TestCluster.connection().getAdmin()) {
            RegionInfo region = admin.getRegions(table).get(0);
            admin.unassign(region.getRegionName());
            admin.assign(region.getRegionName());
        }
    }

    private static int count(ResultScanner scanner) throws IOException {
        int n = 0;
        while (scanner.next() != null) {
            n++;
        }
        return n;
    }

    private static byte[] row(String row) {
        return Bytes.toBytes(row);
    }

    private static byte[] value(String value) {
        return Bytes.toBytes(value);
    }
}
