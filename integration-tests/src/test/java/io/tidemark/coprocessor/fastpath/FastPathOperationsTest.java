package io.tidemark.coprocessor.fastpath;

import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionAbortedException;
import io.tidemark.client.TransactionManager;
import io.tidemark.table.TableFeature;
import io.tidemark.client.fastpath.FastPathTable;
import io.tidemark.client.fastpath.VersionedResult;
import io.tidemark.fastpath.FastPathConflictException;
import io.tidemark.testing.HeldCommitRecords;
import io.tidemark.testing.SharedTestClusters;
import io.tidemark.testing.TestCluster;
import io.tidemark.testing.faults.ServerReadStalls;
import io.tidemark.timestamp.Timestamps;
import io.tidemark.visibility.CommittedRow;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.tidemark.testing.TestCluster.F;
import static io.tidemark.testing.TestCluster.G;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(SharedTestClusters.class)
class FastPathOperationsTest {

    private static final byte[] Q = Bytes.toBytes("q");
    private static final byte[] R = Bytes.toBytes("r");

    private static TestCluster env;
    private static TableName table;

    @BeforeAll
    static void createTable(TestCluster shared) throws Exception {
        env = shared;
        table = env.createTable("ops", EnumSet.of(TableFeature.FAST_PATH));
    }

    @Test
    void writeCommitsAtOnceAndReadReturnsValueAndVersion() throws Exception {
        byte[] row = Bytes.toBytes("write-read");
        try (FastPathTable fp = env.fastPath(table)) {
            long v1 = fp.put(new Put(row).addColumn(F, Q, Bytes.toBytes("one")).addColumn(G, R, Bytes.toBytes("x")));
            assertTrue((v1 & Timestamps.LOW_MASK) != 0, "a fast-path version lies between TSO timestamps: " + v1);
            VersionedResult read = fp.get(new Get(row));
            assertEquals(v1, read.version());
            assertArrayEquals(Bytes.toBytes("one"), read.result().getValue(F, Q));
            assertArrayEquals(Bytes.toBytes("x"), read.result().getValue(G, R));
            assertEquals(2, read.result().size(), "only user cells come back: " + read.result());

            long v2 = fp.put(new Put(row).addColumn(F, Q, Bytes.toBytes("two")));
            assertTrue(v2 > v1, "later commits of a session get larger versions");
            VersionedResult onlyQ = fp.get(new Get(row).addColumn(F, Q));
            assertEquals(v2, onlyQ.version());
            assertEquals(1, onlyQ.result().size());
            assertArrayEquals(Bytes.toBytes("two"), onlyQ.result().getValue(F, Q));
        }
        // A generic transaction begun afterwards sees the committed fast-path write.
        Transaction tx = env.tm.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            Result r = t.get(tx, new Get(row));
            assertArrayEquals(Bytes.toBytes("two"), r.getValue(F, Q));
            assertArrayEquals(Bytes.toBytes("x"), r.getValue(G, R));
        }
        env.tm.commit(tx);
    }

    @Test
    void deleteRemovesColumnsFamiliesAndRows() throws Exception {
        byte[] row = Bytes.toBytes("delete");
        try (FastPathTable fp = env.fastPath(table)) {
            fp.put(new Put(row).addColumn(F, Q, Bytes.toBytes("a")).addColumn(F, R, Bytes.toBytes("b"))
                    .addColumn(G, Q, Bytes.toBytes("c")));
            fp.delete(new Delete(row).addColumns(F, Q));
            Result afterColumn = fp.get(new Get(row)).result();
            assertNull(afterColumn.getValue(F, Q));
            assertArrayEquals(Bytes.toBytes("b"), afterColumn.getValue(F, R));

            fp.delete(new Delete(row).addFamily(F));
            Result afterFamily = fp.get(new Get(row)).result();
            assertEquals(1, afterFamily.size());
            assertArrayEquals(Bytes.toBytes("c"), afterFamily.getValue(G, Q));

            long deleted = fp.delete(new Delete(row));
            VersionedResult afterRow = fp.get(new Get(row));
            assertTrue(afterRow.result().isEmpty());
            assertEquals(deleted, afterRow.version(), "a delete is a committed write of the row");
        }
        Transaction tx = env.tm.begin();
        try (TTable t = new TTable(TestCluster.connection(), table)) {
            assertTrue(t.get(tx, new Get(row)).isEmpty(), "generic readers see the fast-path deletes");
        }
        env.tm.commit(tx);
    }

    @Test
    void conditionalWriteFailsWhenRowWasWrittenSinceItsVersion() throws Exception {
        byte[] row = Bytes.toBytes("conditional");
        try (FastPathTable fp = env.fastPath(table); FastPathTable other = env.fastPath(table)) {
            fp.put(new Put(row).addColumn(F, Q, Bytes.toBytes(1L)));
            VersionedResult read = fp.getForUpdate(new Get(row));
            long committed = fp.putIfUnchanged(new Put(row).addColumn(F, Q, Bytes.toBytes(2L)), read.version());
            assertTrue(committed > read.version());

            VersionedResult stale = fp.getForUpdate(new Get(row));
            other.put(new Put(row).addColumn(G, R, Bytes.toBytes("another column, same row")));
            FastPathConflictException conflict = assertThrows(FastPathConflictException.class,
                    () -> fp.putIfUnchanged(new Put(row).addColumn(F, Q, Bytes.toBytes(3L)), stale.version()));
            assertTrue(conflict.getMessage().contains("read it again"), conflict.getMessage());
            assertArrayEquals(Bytes.toBytes(2L), fp.get(new Get(row)).result().getValue(F, Q), "nothing written");

            VersionedResult fresh = fp.getForUpdate(new Get(row));
            fp.deleteIfUnchanged(new Delete(row).addColumns(F, Q), fresh.version());
            assertNull(fp.get(new Get(row)).result().getValue(F, Q));
        }
    }

    @Test
    void checkAndMutateAppliesOnlyWhenTheLatestCommittedValueMatches() throws Exception {
        byte[] row = Bytes.toBytes("check-and-mutate");
        try (FastPathTable fp = env.fastPath(table)) {
            assertTrue(fp.checkAndMutate(row, F, Q, null, new Put(row).addColumn(F, Q, Bytes.toBytes("first"))),
                    "absent column matches a null expectation");
            assertFalse(fp.checkAndMutate(row, F, Q, null, new Put(row).addColumn(F, Q, Bytes.toBytes("again"))));
            assertFalse(fp.checkAndMutate(row, F, Q, Bytes.toBytes("wrong"),
                    new Put(row).addColumn(F, Q, Bytes.toBytes("no"))));
            assertTrue(fp.checkAndMutate(row, F, Q, Bytes.toBytes("first"),
                    new Put(row).addColumn(F, Q, Bytes.toBytes("second"))));
            assertArrayEquals(Bytes.toBytes("second"), fp.get(new Get(row)).result().getValue(F, Q));
            assertTrue(fp.checkAndMutate(row, F, Q, Bytes.toBytes("second"), new Delete(row).addColumns(F, Q)));
            assertTrue(fp.get(new Get(row)).result().isEmpty());
        }
    }

    @Test
    void incrementsFromManyThreadsGiveTheExactTotal() throws Exception {
        byte[] row = Bytes.toBytes("counter");
        int threads = 8;
        int perThread = 40;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Future<Void>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            done.add(pool.submit(() -> {
                try (FastPathTable fp = env.fastPath(table)) {
                    long last = 0;
                    for (int i = 0; i < perThread; i++) {
                        long value = fp.increment(row, F, Q, 1);
                        assertTrue(value > last, "a session sees its own increments");
                        last = value;
                    }
                }
                return null;
            }));
        }
        for (Future<Void> f : done) {
            f.get(120, TimeUnit.SECONDS);
        }
        pool.shutdown();
        try (FastPathTable fp = env.fastPath(table)) {
            assertEquals(threads * perThread, Bytes.toLong(fp.get(new Get(row)).result().getValue(F, Q)));
        }
    }

    @Test
    void fastPathWriteAbortsOnAnUndecidedTentativeWriteAndFollowsItsCommit() throws Exception {
        byte[] row = Bytes.toBytes("pending");
        Transaction tx = env.tm.begin();
        try (TTable t = new TTable(TestCluster.connection(), table); FastPathTable fp = env.fastPath(table)) {
            t.put(tx, new Put(row).addColumn(F, Q, Bytes.toBytes("generic")));
            FastPathConflictException conflict = assertThrows(FastPathConflictException.class,
                    () -> fp.put(new Put(row).addColumn(G, R, Bytes.toBytes("fast"))));
            assertTrue(conflict.getMessage().contains(String.valueOf(tx.startTimestamp())), conflict.getMessage());
            assertThrows(FastPathConflictException.class, () -> fp.getForUpdate(new Get(row)));
            assertTrue(fp.get(new Get(row)).result().isEmpty(), "a plain read skips the undecided write");

            env.tm.commit(tx);
            long version = fp.put(new Put(row).addColumn(G, R, Bytes.toBytes("fast")));
            assertTrue(version > tx.commitTimestamp(), "minted above the generic commit: " + version + " vs "
                    + tx.commitTimestamp());
            Result r = fp.get(new Get(row)).result();
            assertArrayEquals(Bytes.toBytes("generic"), r.getValue(F, Q));
            assertArrayEquals(Bytes.toBytes("fast"), r.getValue(G, R));
        }
    }

    /**
     * A plain read skips an undecided write, but not one that may still commit below the version the read answers:
     * W1 got its commit timestamp from the TSO and has not written its record when W2, begun after it, commits
     * another column of the row. Answering W2's state at W2's commit while W1 could still commit below it was the
     * stale read the chaos checker found (stop 23); the read invalidates W1 instead, and W1's commit fails.
     */
    @Test
    void plainReadInvalidatesAWriterThatCouldCommitBelowTheVersionItAnswers() throws Exception {
        byte[] row = Bytes.toBytes("settled");
        HeldCommitRecords held = new HeldCommitRecords(env.commitTable);
        try (TransactionManager slowTm = env.managerBuilder().commitRecordWriter(held).build();
             TTable t = new TTable(TestCluster.connection(), table); FastPathTable fp = env.fastPath(table)) {
            Transaction w1 = slowTm.begin();
            t.put(w1, new Put(row).addColumn(F, Q, Bytes.toBytes("w1")));
            CompletableFuture<Void> w1Commit = HeldCommitRecords.commitInBackground(slowTm, w1);
            held.awaitHeld();
            Transaction w2 = env.tm.begin();
            t.put(w2, new Put(row).addColumn(G, R, Bytes.toBytes("w2")));
            env.tm.commit(w2);

            VersionedResult read = fp.get(new Get(row));
            assertNull(read.result().getValue(F, Q), "W1 has no record: it is not visible");
            assertArrayEquals(Bytes.toBytes("w2"), read.result().getValue(G, R));
            assertEquals(w2.commitTimestamp(), read.version());
            assertTrue(env.commitTable.lookup(w1.startTimestamp()).isInvalidated(),
                    "W1 got its commit timestamp before W2 began, below the read's version");
            held.release();

            ExecutionException e = assertThrows(ExecutionException.class, () -> w1Commit.get(30, TimeUnit.SECONDS));
            TransactionAbortedException aborted = assertInstanceOf(TransactionAbortedException.class, e.getCause());
            assertEquals(TransactionAbortedException.Reason.INVALIDATED, aborted.reason());
            assertArrayEquals(Bytes.toBytes("w2"), fp.get(new Get(row)).result().getValue(G, R));
            assertNull(fp.get(new Get(row)).result().getValue(F, Q));
        } finally {
            held.release();
        }
    }

    /**
     * Issue 31: W writes a = 1, then a = 100 and b = x, and commits, while a fast-path read for update is held in the
     * region server between its read of the row (after W's first put) and its lookup of W. It answered a = 1 and no
     * b at W's commit, a state W never committed, and the conditional write built on it replaced W's committed 100
     * with 2: a lost update. Now the read reads the row again once it learns W committed.
     */
    @Test
    void aReadForUpdateHeldWhileAGenericWriterFinishesNeverLosesItsUpdate() throws Exception {
        byte[] row = Bytes.toBytes("held-read-for-update");
        TableName held = heldReadsTable();
        VersionedResult read = readHeldWhileAWriterFinishes(held, row, FastPathTable::getForUpdate);
        assertArrayEquals(Bytes.toBytes(100L), read.result().getValue(F, Q), "W's last write of q, all of W");
        assertArrayEquals(Bytes.toBytes("x"), read.result().getValue(F, R));
        try (FastPathTable fp = env.fastPath(held)) {
            long before = Bytes.toLong(read.result().getValue(F, Q));
            fp.putIfUnchanged(new Put(row).addColumn(F, Q, Bytes.toBytes(before + 1)), read.version());
            assertArrayEquals(Bytes.toBytes(101L), fp.get(new Get(row)).result().getValue(F, Q),
                    "the increment applies to W's committed value");
        }
    }

    /** Issue 31, met by a plain fast-path read. */
    @Test
    void aPlainReadHeldWhileAGenericWriterFinishesShowsAllOfIt() throws Exception {
        byte[] row = Bytes.toBytes("held-read");
        VersionedResult read = readHeldWhileAWriterFinishes(heldReadsTable(), row, FastPathTable::get);
        assertArrayEquals(Bytes.toBytes(100L), read.result().getValue(F, Q));
        assertArrayEquals(Bytes.toBytes("x"), read.result().getValue(F, R));
    }

    /** A fast-path read of the row, held after its first server-side read while W puts q = 100 and r = x and commits. */
    private VersionedResult readHeldWhileAWriterFinishes(TableName held, byte[] row, FastPathRead read)
            throws Exception {
        ExecutorService reader = Executors.newSingleThreadExecutor();
        try (TTable t = new TTable(TestCluster.connection(), held); FastPathTable fp = env.fastPath(held)) {
            fp.put(new Put(row).addColumn(F, Q, Bytes.toBytes(0L)));
            Transaction w = env.tm.begin();
            t.put(w, new Put(row).addColumn(F, Q, Bytes.toBytes(1L)));
            ServerReadStalls.HeldRead hold = ServerReadStalls.holdNext(held, ServerReadStalls.ofRow(row));
            Future<VersionedResult> answer = reader.submit(() -> read.read(fp, new Get(row)));
            assertTrue(hold.awaitHeld(30, TimeUnit.SECONDS), "the fast path read the row");
            t.put(w, new Put(row).addColumn(F, Q, Bytes.toBytes(100L)));
            t.put(w, new Put(row).addColumn(F, R, Bytes.toBytes("x")));
            env.tm.commit(w);
            hold.release();
            VersionedResult result = answer.get(30, TimeUnit.SECONDS);
            assertEquals(w.commitTimestamp(), result.version());
            assertEquals(1, ServerReadStalls.stalled(held));
            return result;
        } finally {
            ServerReadStalls.disarm(held);
            reader.shutdownNow();
        }
    }

    /** A fast-path table whose server-side reads can be held ({@link ServerReadStalls}). */
    private static TableName heldReadsTable() throws Exception {
        TableName held = env.createTable("held", EnumSet.of(TableFeature.FAST_PATH));
        ServerReadStalls.attachTo(TestCluster.connection(), held);
        return held;
    }

    /** A fast-path read operation, as a method of {@link FastPathTable}. */
    private interface FastPathRead {
        VersionedResult read(FastPathTable table, Get get) throws Exception;
    }

    @Test
    void genericWriteAbortsWhenTheRowHasANewerFastPathWrite() throws Exception {
        byte[] row = Bytes.toBytes("newer-fast-path");
        byte[] otherRow = Bytes.toBytes("untouched-row");
        Transaction tx = env.tm.begin();
        try (TTable t = new TTable(TestCluster.connection(), table); FastPathTable fp = env.fastPath(table)) {
            // A later transaction reads the row, so the region's clock passes tx's start and the fast-path write
            // below is minted after tx started.
            Transaction laterReader = env.tm.begin();
            t.get(laterReader, new Get(row));
            env.tm.commit(laterReader);
            long version = fp.put(new Put(row).addColumn(F, Q, Bytes.toBytes("fast")));
            assertTrue(version > laterReader.startTimestamp());
            t.put(tx, new Put(otherRow).addColumn(F, Q, Bytes.toBytes("fine: per-row check")));
            TransactionAbortedException aborted = assertThrows(TransactionAbortedException.class,
                    () -> t.put(tx, new Put(row).addColumn(F, Q, Bytes.toBytes("lost update"))));
            assertEquals(TransactionAbortedException.Reason.NEWER_FAST_PATH_WRITE, aborted.reason());
            assertArrayEquals(Bytes.toBytes("fast"), fp.get(new Get(row)).result().getValue(F, Q));
            assertTrue(fp.get(new Get(otherRow)).result().isEmpty(), "the aborted transaction's writes are gone");
        }
    }

    @Test
    void genericReaderNeverSeesAFastPathWriteMintedAfterItsRead() throws Exception {
        byte[] row = Bytes.toBytes("repeatable");
        try (TTable t = new TTable(TestCluster.connection(), table); FastPathTable fp = env.fastPath(table)) {
            fp.put(new Put(row).addColumn(F, Q, Bytes.toBytes("before")));
            Transaction reader = env.tm.begin();
            assertArrayEquals(Bytes.toBytes("before"), t.get(reader, new Get(row)).getValue(F, Q));
            long version = fp.put(new Put(row).addColumn(F, Q, Bytes.toBytes("after")));
            assertTrue(version > reader.startTimestamp(), "minted above the reader's snapshot");
            assertArrayEquals(Bytes.toBytes("before"), t.get(reader, new Get(row)).getValue(F, Q));
            env.tm.commit(reader);
            Transaction later = env.tm.begin();
            assertArrayEquals(Bytes.toBytes("after"), t.get(later, new Get(row)).getValue(F, Q));
            env.tm.commit(later);
        }
    }

    @Test
    void fallsBackToAFreshTsoTimestampWhenNoVersionIsLeft() throws Exception {
        byte[] row = Bytes.toBytes("overflow");
        try (FastPathTable fp = env.fastPath(table)) {
            fp.put(new Put(row).addColumn(F, Q, Bytes.toBytes(0L)));
            Transaction tx = env.tm.begin();
            env.tm.commit(tx);
            long lastRoom = tx.startTimestamp() + Timestamps.MAX_FAST_PATH_LOW;
            fp.advanceSession(lastRoom);
            long version = fp.put(new Put(row).addColumn(F, Q, Bytes.toBytes(1L)));
            assertTrue(Timestamps.tsoPart(version) > tx.startTimestamp(), "minted after a fresh TSO timestamp: "
                    + version);
            assertEquals(version, fp.get(new Get(row)).version());
            assertEquals(version + 1, fp.put(new Put(row).addColumn(F, Q, Bytes.toBytes(2L))));
        }
    }

    @Test
    void rowsWithLongHistoriesOnBothPathsAreReadCorrectly() throws Exception {
        byte[] row = Bytes.toBytes("long-history");
        int generic = 2 * CommittedRow.WINDOW + 3;
        long lastCommit = 0;
        try (TTable t = new TTable(TestCluster.connection(), table); FastPathTable fp = env.fastPath(table)) {
            for (int i = 0; i < generic; i++) {
                Transaction tx = env.tm.begin();
                t.put(tx, new Put(row).addColumn(F, Q, Bytes.toBytes((long) i)));
                if (i == 1) {
                    t.put(tx, new Put(row).addColumn(G, R, Bytes.toBytes("old column")));
                }
                env.tm.commit(tx);
                lastCommit = tx.commitTimestamp();
            }
            VersionedResult read = fp.get(new Get(row));
            assertEquals(lastCommit, read.version(), "the row version is the newest commit");
            assertArrayEquals(Bytes.toBytes((long) generic - 1), read.result().getValue(F, Q));
            assertArrayEquals(Bytes.toBytes("old column"), read.result().getValue(G, R),
                    "a column decided below the first read's window");
            for (int i = 0; i < 3 * CommittedRow.WINDOW; i++) {
                assertEquals(generic + i, fp.increment(row, F, Q, 1));
            }
            Transaction tx = env.tm.begin();
            assertArrayEquals(Bytes.toBytes((long) generic - 1 + 3 * CommittedRow.WINDOW),
                    t.get(tx, new Get(row)).getValue(F, Q));
            t.delete(tx, new Delete(row).addColumns(G, R));
            env.tm.commit(tx);
            VersionedResult afterDelete = fp.get(new Get(row));
            assertNull(afterDelete.result().getValue(G, R));
            assertEquals(tx.commitTimestamp(), afterDelete.version());
        }
    }

    @Test
    void refusesUserTimestampsAndMetadataQualifiers() throws Exception {
        byte[] row = Bytes.toBytes("bad-input");
        try (FastPathTable fp = env.fastPath(table)) {
            assertThrows(IllegalArgumentException.class,
                    () -> fp.put(new Put(row).addColumn(F, Q, 42L, Bytes.toBytes("x"))));
            assertThrows(IllegalArgumentException.class,
                    () -> fp.put(new Put(row).addColumn(F, Bytes.add(Q, new byte[] {0, 't', 'm', '.', 's'}),
                            Bytes.toBytes("x"))));
            fp.put(new Put(row).addColumn(F, Q, Bytes.toBytes("not a long")));
            Exception e = assertThrows(Exception.class, () -> fp.increment(row, F, Q, 1));
            assertTrue(e.getMessage().contains("a counter has 8"), e.getMessage());
        }
    }
}
