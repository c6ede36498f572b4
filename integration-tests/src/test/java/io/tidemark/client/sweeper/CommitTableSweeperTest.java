package io.tidemark.client.sweeper;

import io.tidemark.client.CommitRecordWriter;
import io.tidemark.client.TTable;
import io.tidemark.client.TableNotTransactionalException;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionAbortedException;
import io.tidemark.client.TransactionManager;
import io.tidemark.committable.CommitTableSchema;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.encoding.CellEncoding;
import io.tidemark.protocol.CommitMode;
import io.tidemark.table.TransactionalTableLayout;
import io.tidemark.testing.HeldCommitRecords;
import io.tidemark.testing.LatestSnapshot;
import io.tidemark.testing.LowWatermarks;
import io.tidemark.testing.StagedFailures;
import io.tidemark.testing.TestCluster;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.RowMutations;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.tidemark.testing.TestCluster.F;
import static io.tidemark.testing.TestCluster.G;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The commit-table sweeper brings the commit table back to empty after clients died mid-commit, and never deletes
 * committed data: not that of a writer wrongly invalidated after it committed, not half of a writer that is still
 * running, not that of a writer whose commit-record write is late, and not cells in a table it cannot see.
 */
// Alone: a sweep refuses while any table that may hold transactional cells is disabled or unmarked, as other
// classes' tables are for moments while they are made or dropped.
@Isolated
class CommitTableSweeperTest {

    private static final int CLIENTS = 8;
    private static final int COMMITS_PER_CLIENT = 5;
    private static final int CRASHED_BEFORE_RECORD = 10;
    private static final byte[] Q = Bytes.toBytes("q");
    /** Short enough for tests, long enough that a commit-record write on a busy test machine meets it. */
    private static final long COMMIT_RECORD_TIMEOUT_MS = 4_000;
    /** The sweeper's invalidated age in these tests: just above the commit-record timeout. */
    private static final long INVALIDATED_AGE_MS = COMMIT_RECORD_TIMEOUT_MS + 1;

    private static TestCluster start(String name) throws IOException {
        return start(name, COMMIT_RECORD_TIMEOUT_MS);
    }

    private static TestCluster start(String name, long commitRecordTimeoutMs) throws IOException {
        return TestCluster.start(name, CommitMode.LOW_LATENCY, config -> {
            config.set(TidemarkConfig.CLIENT_COMMIT_RECORD_TIMEOUT_MS, String.valueOf(commitRecordTimeoutMs));
            config.set(TidemarkConfig.SWEEPER_COMMITTED_AGE_MS, "0");
            config.set(TidemarkConfig.SWEEPER_INVALIDATED_AGE_MS, String.valueOf(commitRecordTimeoutMs + 1));
            config.set(TidemarkConfig.SWEEPER_MARKER_MARGIN_MS, "100");
            config.set(TidemarkConfig.TSO_LOW_WATERMARK_PERSIST_MS, "20");
            // A small conflict map, so that LowWatermarks can raise the low watermark past the writers of a test.
            config.set(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES, "8");
        });
    }

    private static CommitTableSweeper sweeper(TestCluster cluster) {
        return new CommitTableSweeper(TestCluster.connection(), cluster.config);
    }

    @Test
    void commitTableReturnsToEmptyAndCommittedDataStaysVisible() throws Exception {
        try (TestCluster cluster = start("sweep")) {
            TableName tableName = cluster.createTransactionalTable("data");
            Map<String, String> committed = new ConcurrentHashMap<>();
            ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
            try {
                List<Future<?>> done = new ArrayList<>();
                for (int c = 0; c < CLIENTS; c++) {
                    int client = c;
                    done.add(clients.submit(() -> {
                        commitThenDie(cluster, tableName, client, committed);
                        return null;
                    }));
                }
                for (Future<?> f : done) {
                    f.get(60, TimeUnit.SECONDS);
                }
            } finally {
                clients.shutdownNow();
            }
            Set<Long> crashed = crashBeforeRecordAndGetInvalidated(cluster, tableName);
            assertEquals(CLIENTS * COMMITS_PER_CLIENT + CRASHED_BEFORE_RECORD, records(cluster));

            LowWatermarks.raiseTo(cluster, Collections.max(crashed));
            ageMarkersPastInvalidatedAge(cluster);
            SweepResult result = sweeper(cluster).sweepAll();

            assertEquals(new TreeMap<>(committed), visible(cluster.tm, tableName));

            assertEquals(CLIENTS * COMMITS_PER_CLIENT, result.completed(), result.toString());
            assertEquals(CRASHED_BEFORE_RECORD, result.rolledBack(), result.toString());
            assertEquals(0, result.undecided(), result.toString());
            assertEquals(0, records(cluster), "the commit table is empty again");
            assertStoredCellsAreClean(tableName, crashed);
        }
    }

    /**
     * Issue 8, item 2 (a): a reader invalidated a writer that had committed and finished its post-commit (its record
     * was gone), then died before undoing that. The old sweeper deleted the writer's data at the marker's version.
     */
    @Test
    void aWrongMarkerOfACommittedWriterIsUndoneAndItsValueKept() throws Exception {
        try (TestCluster cluster = start("sweep_wrong")) {
            TableName tableName = cluster.createTransactionalTable("wrong");
            byte[] row = Bytes.toBytes("committed");
            long start;
            try (TTable table = new TTable(TestCluster.connection(), tableName)) {
                Transaction writer = cluster.tm.begin();
                table.put(writer, new Put(row).addColumn(F, Q, Bytes.toBytes("kept")));
                cluster.tm.commit(writer);
                start = writer.startTimestamp();
            }
            assertTrue(cluster.commitTable.lookup(start).isAbsent(), "the post-commit removed the record");
            // The post-commit's delete of the record masks every put of the row in the same millisecond (HBase sorts
            // a delete before a put of its timestamp), so the marker below could not be read. The region servers
            // run in this JVM: once its clock has moved on, the marker's timestamp is past the delete's.
            long deletedBy = System.currentTimeMillis();
            while (System.currentTimeMillis() <= deletedBy) {
                Thread.onSpinWait();
            }
            // The reader that lost the race with the post-commit, and died before its undo.
            assertTrue(cluster.commitTable.invalidate(start).isInvalidated());
            assertTrue(cluster.commitTable.lookup(start).isInvalidated(), "the marker can be read");

            LowWatermarks.raiseTo(cluster, start);
            // Waits instead of ageing the marker: an aged marker would fall behind the post-commit's delete.
            awaitMarkersOlderThanInvalidatedAge(cluster);
            SweepResult result = sweeper(cluster).sweepAll();

            assertEquals("kept", readCommitted(cluster.tm, tableName, row));
            assertTrue(cluster.commitTable.lookup(start).isAbsent(), "the wrong marker is undone");
            assertEquals(1, result.wrongMarkersUndone(), result.toString());
            assertEquals(0, result.rolledBack(), result.toString());
        }
    }

    /**
     * Issue 8, item 2 (b): the old sweeper removed the marker (and the cells) of a writer that was still running; its
     * own commit record then succeeded, committing the writes it made after the sweep without those before it.
     */
    @Test
    void aRunningWritersMarkerSurvivesTheSweepAndNoHalfOfItBecomesVisible() throws Exception {
        try (TestCluster cluster = start("sweep_running");
             TTable table = new TTable(TestCluster.connection(), cluster.createTransactionalTable("running"))) {
            Transaction writer = cluster.tm.begin();
            table.put(writer, new Put(Bytes.toBytes("before")).addColumn(F, Q, Bytes.toBytes("w1")));
            Transaction reader = cluster.tm.begin();
            assertTrue(table.get(reader, new Get(Bytes.toBytes("before"))).isEmpty());
            cluster.tm.rollback(reader);
            assertTrue(cluster.commitTable.lookup(writer.startTimestamp()).isInvalidated(),
                    "the reader invalidated the pending writer");

            ageMarkersPastInvalidatedAge(cluster);
            SweepResult result = sweeper(cluster).sweepAll();

            table.put(writer, new Put(Bytes.toBytes("after")).addColumn(F, Q, Bytes.toBytes("w2")));
            TransactionAbortedException aborted = assertThrows(TransactionAbortedException.class,
                    () -> cluster.tm.commit(writer));
            assertEquals(TransactionAbortedException.Reason.INVALIDATED, aborted.reason());
            assertNull(readCommitted(cluster.tm, table.getName(), Bytes.toBytes("before")));
            assertNull(readCommitted(cluster.tm, table.getName(), Bytes.toBytes("after")));
            assertTrue(cluster.commitTable.lookup(writer.startTimestamp()).isInvalidated(), "the marker stays");
            assertEquals(1, result.undecided(), result.toString());
            assertEquals(0, result.rolledBack(), result.toString());
        }
    }

    /**
     * The commit-record deadline: a writer got COMMITTED from the TSO, then stalled before its commit record; a reader
     * invalidated it, the low watermark passed it, and a sweep rolled it back and removed the marker. The stalled
     * write must not land afterwards: without the deadline it would commit a transaction whose cells are gone.
     */
    @Test
    void aWriterPastItsCommitRecordDeadlineCannotCommitAfterTheSweepRemovedItsMarker() throws Exception {
        try (TestCluster cluster = start("sweep_deadline")) {
            TableName tableName = cluster.createTransactionalTable("deadline");
            byte[] row = Bytes.toBytes("stalled");
            HeldCommitRecords stalls = new HeldCommitRecords(cluster.commitTable);
            try (TransactionManager stalling = cluster.managerBuilder().commitRecordWriter(stalls).build();
                 TTable table = new TTable(TestCluster.connection(), tableName)) {
                Transaction writer = stalling.begin();
                table.put(writer, new Put(row).addColumn(F, Q, Bytes.toBytes("late")));
                CompletableFuture<Void> commit = HeldCommitRecords.commitInBackground(stalling, writer);
                stalls.awaitHeld();
                assertNull(readCommitted(cluster.tm, tableName, row), "the reader invalidates the stalled writer");
                assertTrue(cluster.commitTable.lookup(writer.startTimestamp()).isInvalidated());

                LowWatermarks.raiseTo(cluster, writer.startTimestamp());
                ageMarkersPastInvalidatedAge(cluster);
                SweepResult result = sweeper(cluster).sweepAll();
                assertEquals(1, result.rolledBack(), result.toString());
                assertTrue(cluster.commitTable.lookup(writer.startTimestamp()).isAbsent(), "the marker is gone");

                stalls.release();
                ExecutionException e = assertThrows(ExecutionException.class, () -> commit.get(60, TimeUnit.SECONDS));
                TransactionAbortedException aborted = assertInstanceOf(TransactionAbortedException.class,
                        e.getCause());
                assertEquals(TransactionAbortedException.Reason.COMMIT_TABLE_UNAVAILABLE, aborted.reason());
                assertTrue(cluster.commitTable.lookup(writer.startTimestamp()).isInvalidated(),
                        "the late writer settled its outcome by invalidating itself");
                assertNull(readCommitted(cluster.tm, tableName, row));
            } finally {
                stalls.release();
            }
        }
    }

    /**
     * The wait before markers go: a writer is granted its commit just before the sweep reads the low watermark (which
     * then covers it) and stalls before its commit record, within its deadline. The sweep removes its cells at once,
     * but must keep the marker until the writer's deadline (plus the margin) has passed, so that the stalled write,
     * arriving while the sweep waits, still finds the marker and fails.
     */
    @Test
    void aSweepKeepsTheMarkerUntilNoCommitRecordWriteCanArrive() throws Exception {
        long timeoutMs = 10_000;
        try (TestCluster cluster = start("sweep_wait", timeoutMs)) {
            TableName tableName = cluster.createTransactionalTable("wait");
            byte[] row = Bytes.toBytes("stalled");
            CountDownLatch granted = new CountDownLatch(1);
            AtomicBoolean writtenInTime = new AtomicBoolean();
            CommitRecordWriter stallsUntilTheSweepRemovedTheCells = (record, deadline) -> {
                granted.countDown();
                awaitCellsRemoved(tableName, row, record.startTimestamp());
                awaitMarkerGone(cluster, record.startTimestamp(), 1_000);
                writtenInTime.set(!deadline.hasPassed());
                return cluster.commitTable.tryCommit(record, deadline);
            };
            try (TransactionManager stalling = cluster.managerBuilder()
                    .commitRecordWriter(stallsUntilTheSweepRemovedTheCells).build();
                 TTable table = new TTable(TestCluster.connection(), tableName)) {
                Transaction writer = stalling.begin();
                table.put(writer, new Put(row).addColumn(F, Q, Bytes.toBytes("late")));
                Transaction reader = cluster.tm.begin();
                assertTrue(table.get(reader, new Get(row)).isEmpty(), "the reader invalidates the pending writer");
                cluster.tm.rollback(reader);
                ageMarkersPastInvalidatedAge(cluster, timeoutMs + 1);
                CompletableFuture<Void> commit = HeldCommitRecords.commitInBackground(stalling, writer);
                assertTrue(granted.await(30, TimeUnit.SECONDS), "the TSO granted the commit");

                LowWatermarks.raiseTo(cluster, writer.startTimestamp());
                SweepResult result = sweeper(cluster).sweepAll();

                ExecutionException e = assertThrows(ExecutionException.class, () -> commit.get(60, TimeUnit.SECONDS));
                TransactionAbortedException aborted = assertInstanceOf(TransactionAbortedException.class,
                        e.getCause());
                assertEquals(TransactionAbortedException.Reason.INVALIDATED, aborted.reason(),
                        "the stalled write met the marker");
                assertTrue(writtenInTime.get(), "the stalled write came within its deadline, while the sweep waited"
                        + " (a slower machine than this test assumes)");
                assertEquals(1, result.rolledBack(), result.toString());
                assertNull(readCommitted(cluster.tm, tableName, row));
            }
        }
    }

    /**
     * Issue 8, item 2 (c): on a table made as the README's snippet used to say (every version kept, families not
     * marked), the old sweeper never looked at the cells, deleted the record of a committed writer whose shadow cells
     * were missing, and the committed value was gone. Now the sweeper, {@code outcome} and TTable refuse the table,
     * naming it, until it is marked.
     */
    @Test
    void anUnmarkedTableHoldingACommittedWritersCellsStopsTheSweepUntilItIsMarked() throws Exception {
        try (TestCluster cluster = start("sweep_unmarked")) {
            TableName tableName = cluster.createTransactionalTable("unmarked");
            byte[] row = Bytes.toBytes("committed");
            long committed;
            long crashed;
            try {
                try (TransactionManager dying = StagedFailures.withoutShadowCells(cluster.managerBuilder());
                     TTable table = new TTable(TestCluster.connection(), tableName)) {
                    Transaction writer = dying.begin();
                    table.put(writer, new Put(row).addColumn(F, Q, Bytes.toBytes("value")));
                    dying.commit(writer);
                    committed = writer.startTimestamp();
                    Transaction crashing = dying.begin();
                    table.put(crashing, new Put(Bytes.toBytes("crashed")).addColumn(F, Q, Bytes.toBytes("never")));
                    crashed = crashing.startTimestamp();
                }
                unmark(tableName);

                IOException refused = assertThrows(IOException.class, () -> sweeper(cluster).sweepAll());
                assertTrue(refused.getMessage().contains(tableName.getNameAsString()), refused.getMessage());
                assertTrue(refused.getMessage().contains("./tidemark table enable"), refused.getMessage());
                assertTrue(cluster.commitTable.lookup(committed).isCommitted(), "the commit record stays");
                IOException notSettled = assertThrows(IOException.class, () -> cluster.tm.outcome(crashed));
                assertTrue(notSettled.getMessage().contains(tableName.getNameAsString()), notSettled.getMessage());
                assertTrue(cluster.commitTable.lookup(crashed).isAbsent(), "a refused outcome changes nothing");
                try (TransactionManager fresh = cluster.managerBuilder().build();
                     TTable table = new TTable(TestCluster.connection(), tableName)) {
                    Transaction tx = fresh.begin();
                    TableNotTransactionalException e = assertThrows(TableNotTransactionalException.class,
                            () -> table.get(tx, new Get(row)));
                    assertTrue(e.getMessage().contains("./tidemark table enable " + tableName.getNameAsString()),
                            e.getMessage());
                    fresh.rollback(tx);
                }

                cluster.admin.enable(tableName, cluster.tm);
                SweepResult result = sweeper(cluster).sweepAll();
                assertEquals(1, result.completed(), result.toString());
                assertEquals("value", readCommitted(cluster.tm, tableName, row));
            } finally {
                TestCluster.drop(tableName);
            }
        }
    }

    /**
     * Tables of another Tidemark installation (bound to another commit table) share the HBase cluster and the
     * timestamps: the sweeper never touches them, even at the versions of its own records.
     */
    @Test
    void anotherInstallationsTablesAreNeverTouched() throws Exception {
        try (TestCluster ours = start("sweep_ours");
             TestCluster theirs = start("sweep_theirs")) {
            TableName ourTable = ours.createTransactionalTable("ours");
            TableName theirTable = theirs.createTransactionalTable("theirs");
            Set<Long> crashed = crashBeforeRecordAndGetInvalidated(ours, ourTable);
            long version = crashed.iterator().next();
            byte[] row = Bytes.toBytes("theirs");
            try (Table raw = TestCluster.connection().getTable(theirTable)) {
                raw.put(new Put(row).addColumn(F, Q, version, Bytes.toBytes("their pending write")));
            }

            LowWatermarks.raiseTo(ours, Collections.max(crashed));
            ageMarkersPastInvalidatedAge(ours);
            SweepResult result = sweeper(ours).sweepAll();
            assertEquals(CRASHED_BEFORE_RECORD, result.rolledBack(), result.toString());
            try (Table raw = TestCluster.connection().getTable(theirTable)) {
                assertEquals("their pending write", Bytes.toString(raw.get(new Get(row).setTimestamp(version))
                        .getValue(F, Q)));
            }
        }
    }

    /** A client that commits and "dies" each time right after its commit record: no shadow cells. */
    private static void commitThenDie(TestCluster cluster, TableName tableName, int client,
            Map<String, String> committed) throws Exception {
        for (int n = 0; n < COMMITS_PER_CLIENT; n++) {
            try (TransactionManager dying = StagedFailures.withoutShadowCells(cluster.managerBuilder());
                 TTable table = new TTable(TestCluster.connection(), tableName)) {
                String row = "c" + client + "-" + n;
                while (true) {
                    Transaction tx = dying.begin();
                    table.put(tx, new Put(Bytes.toBytes(row)).addColumn(F, Q, Bytes.toBytes("v" + row))
                            .addColumn(G, Q, Bytes.toBytes("w" + row)));
                    try {
                        dying.commit(tx);
                        break;
                    } catch (TransactionAbortedException belowLowWatermark) {
                        // The small conflict map's low watermark passed it while others committed: try again.
                        assertEquals(TransactionAbortedException.Reason.BELOW_LOW_WATERMARK,
                                belowLowWatermark.reason());
                    }
                }
                committed.put(row + "/f", "v" + row);
                committed.put(row + "/g", "w" + row);
            }
        }
    }

    /** Writers that die before their commit record; a reader then invalidates each of them. */
    private static Set<Long> crashBeforeRecordAndGetInvalidated(TestCluster cluster, TableName tableName)
            throws Exception {
        Set<Long> crashed = new HashSet<>();
        try (TTable table = new TTable(TestCluster.connection(), tableName)) {
            for (int i = 0; i < CRASHED_BEFORE_RECORD; i++) {
                try (TransactionManager dying = cluster.managerBuilder().build()) {
                    Transaction tx = dying.begin();
                    table.put(tx, new Put(Bytes.toBytes("x" + i)).addColumn(F, Q, Bytes.toBytes("never")));
                    crashed.add(tx.startTimestamp());
                }
            }
            Transaction reader = cluster.tm.begin();
            for (int i = 0; i < CRASHED_BEFORE_RECORD; i++) {
                assertTrue(table.get(reader, new Get(Bytes.toBytes("x" + i))).isEmpty());
            }
            cluster.tm.rollback(reader);
        }
        for (long start : crashed) {
            assertTrue(cluster.commitTable.lookup(start).isInvalidated());
        }
        return crashed;
    }

    /** Removes the transactional marker and the commit-table binding: a table as made before families were marked. */
    private static void unmark(TableName tableName) throws IOException {
        try (Admin admin = TestCluster.connection().getAdmin()) {
            TableDescriptor current = admin.getDescriptor(tableName);
            TableDescriptorBuilder unmarked = TableDescriptorBuilder.newBuilder(current)
                    .removeValue(Bytes.toBytes(TransactionalTableLayout.COMMIT_TABLE_KEY));
            for (ColumnFamilyDescriptor family : current.getColumnFamilies()) {
                // A null value removes the key.
                unmarked.modifyColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(family)
                        .setValue(TransactionalTableLayout.TRANSACTIONAL_FAMILY_KEY, null).build());
            }
            admin.modifyTable(unmarked.build());
        }
    }

    /**
     * Ages every invalidation marker of the cluster's commit table past the sweeper's invalidated age, as if its reader
     * had invalidated the writer that long ago: rewrites the marker at an older HBase timestamp (these commit tables
     * have no guard), so the test need not wait the age out. The age only keeps the sweeper away from fresh markers
     * ({@code OldRecords}); what keeps a sweep safe, the low watermark and the wait for the commit-record deadline
     * before a marker goes, is untouched.
     */
    private static void ageMarkersPastInvalidatedAge(TestCluster cluster) throws IOException {
        ageMarkersPastInvalidatedAge(cluster, INVALIDATED_AGE_MS);
    }

    private static void ageMarkersPastInvalidatedAge(TestCluster cluster, long ageMs) throws IOException {
        long agedVersion = System.currentTimeMillis() - ageMs - 1;
        try (Table table = TestCluster.connection().getTable(cluster.commitTable.tableName());
             ResultScanner rows = table.getScanner(new Scan().addColumn(CommitTableSchema.FAMILY,
                     CommitTableSchema.COMMIT_QUALIFIER))) {
            for (Result r : rows) {
                Cell c = r.getColumnLatestCell(CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER);
                if (!CommitTableSchema.isRecordRow(r.getRow()) || c.getTimestamp() <= agedVersion
                        || !CommitTableSchema.decode(CellUtil.cloneValue(c)).isInvalidated()) {
                    continue;
                }
                RowMutations aged = new RowMutations(r.getRow());
                aged.add(new Delete(r.getRow()).addColumn(CommitTableSchema.FAMILY,
                        CommitTableSchema.COMMIT_QUALIFIER, c.getTimestamp()));
                aged.add(new Put(r.getRow()).addColumn(CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER,
                        agedVersion, CellUtil.cloneValue(c)));
                table.mutateRow(aged);
                // A delete of the row at or after the older version (a post-commit's removal of the record) would
                // hide the aged marker: such a test waits the age out instead.
                long start = CommitTableSchema.startTimestampOf(r.getRow());
                assertTrue(cluster.commitTable.lookup(start).isInvalidated(), "the aged marker of " + start);
            }
        }
    }

    /** Waits (not asserting any timing) until every invalidation marker is older than the sweeper's age. */
    private static void awaitMarkersOlderThanInvalidatedAge(TestCluster cluster) throws Exception {
        long newest = 0;
        try (Table table = TestCluster.connection().getTable(cluster.commitTable.tableName());
             ResultScanner rows = table.getScanner(new Scan())) {
            for (Result r : rows) {
                Cell c = r.getColumnLatestCell(CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER);
                if (c != null && CommitTableSchema.decode(CellUtil.cloneValue(c)).isInvalidated()) {
                    newest = Math.max(newest, c.getTimestamp());
                }
            }
        }
        long wait = newest + INVALIDATED_AGE_MS + 1 - System.currentTimeMillis();
        if (wait > 0) {
            Thread.sleep(wait);
        }
    }

    private static int records(TestCluster cluster) throws IOException {
        int records = 0;
        try (Table table = TestCluster.connection().getTable(cluster.commitTable.tableName());
             ResultScanner rows = table.getScanner(new Scan())) {
            for (Result r : rows) {
                if (CommitTableSchema.isRecordRow(r.getRow())) {
                    records++;
                }
            }
        }
        return records;
    }

    private static String readCommitted(TransactionManager tm, TableName tableName, byte[] row) throws IOException {
        return LatestSnapshot.read(tm, tableName, row, F, Q);
    }

    private static Map<String, String> visible(TransactionManager tm, TableName tableName) throws IOException {
        Map<String, String> values = new TreeMap<>();
        Transaction reader = tm.begin();
        try (TTable table = new TTable(TestCluster.connection(), tableName);
             ResultScanner rows = table.getScanner(reader, new Scan())) {
            for (Result r : rows) {
                for (Cell c : r.rawCells()) {
                    values.put(Bytes.toString(CellUtil.cloneRow(c)) + "/" + Bytes.toString(CellUtil.cloneFamily(c)),
                            Bytes.toString(CellUtil.cloneValue(c)));
                }
            }
        }
        tm.rollback(reader);
        return values;
    }

    /** Every data cell has its shadow cell; nothing of the invalidated writers is left. */
    private static void assertStoredCellsAreClean(TableName tableName, Set<Long> crashed) throws IOException {
        try (Table table = TestCluster.connection().getTable(tableName);
             ResultScanner rows = table.getScanner(new Scan().readAllVersions())) {
            for (Result r : rows) {
                for (Cell c : r.rawCells()) {
                    assertFalse(crashed.contains(c.getTimestamp()), "tentative cell of an invalidated writer: " + c);
                    byte[] q = CellUtil.cloneQualifier(c);
                    if (!CellEncoding.isMetadataQualifier(q)) {
                        byte[] f = CellUtil.cloneFamily(c);
                        assertTrue(r.getColumnCells(f, CellEncoding.shadowQualifier(q)).stream()
                                .anyMatch(s -> s.getTimestamp() == c.getTimestamp()), "no shadow cell for " + c);
                    }
                }
            }
        }
    }

    /** Waits until the writer's cells at {@code version} are gone (the sweep removed them). */
    private static void awaitCellsRemoved(TableName tableName, byte[] row, long version) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        try (Table raw = TestCluster.connection().getTable(tableName)) {
            while (!raw.get(new Get(row).setTimestamp(version)).isEmpty()) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("the sweep never removed the cells at " + version);
                }
                sleep(10);
            }
        }
    }

    /**
     * Gives a sweep that removes markers without waiting the time to do so: returns once the marker is gone, or after
     * {@code graceMs}.
     */
    private static void awaitMarkerGone(TestCluster cluster, long start, long graceMs) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(graceMs);
        while (cluster.commitTable.lookup(start).isInvalidated() && System.nanoTime() - deadline < 0) {
            sleep(10);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
