package io.tidemark.security;

import io.tidemark.certificate.DecisionKey;
import io.tidemark.certificate.Seal;
import io.tidemark.client.ClientMetrics;
import io.tidemark.client.PostCommitMode;
import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionAbortedException;
import io.tidemark.client.TransactionException;
import io.tidemark.client.TransactionManager;
import io.tidemark.client.TransactionOutcome;
import io.tidemark.client.VisibilityLevel;
import io.tidemark.client.admin.TidemarkAdmin;
import io.tidemark.client.fastpath.FastPathTable;
import io.tidemark.client.sweeper.CommitTableSweeper;
import io.tidemark.client.sweeper.SweepResult;
import io.tidemark.client.tso.NettyTsoClient;
import io.tidemark.client.tso.TsoUnavailableException;
import io.tidemark.committable.CommitRecord;
import io.tidemark.committable.CommitTableSchema;
import io.tidemark.committable.CommitTableSettings;
import io.tidemark.committable.HBaseCommitTable;
import io.tidemark.committable.TimestampTableKeys;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.embedded.EmbeddedCluster;
import io.tidemark.gc.SnapshotTooOldException;
import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.ErrorCode;
import io.tidemark.table.TableFeature;
import io.tidemark.testing.HeldCommitRecords;
import io.tidemark.testing.HostileRequests;
import io.tidemark.testing.LostConflict;
import io.tidemark.testing.SecuredMiniCluster;
import io.tidemark.testing.StagedFailures;
import io.tidemark.timestamp.Timestamps;
import io.tidemark.tso.TsoServer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.security.AccessDeniedException;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 32 §4: Tidemark on an HBase secured as in production, with Kerberos (MiniKdc) and HBase authorization
 * ({@code AccessController} on master, regions and region servers, coprocessor calls checked), and the principals of
 * docs/security.md, each over a connection of its own: the TSO's ({@code tidemark}, which also runs the sweeper), an
 * application ({@code app}, table {@code accounts}), a user who only reads {@code accounts} ({@code reader}), a second
 * application ({@code other}, table {@code ledger}), and HBase's superuser (the region servers, and the administrator
 * who creates tables). Each is granted exactly what docs/operations.md step 4 says, read from the page
 * ({@link OperatorPermissions}); principals with fewer permissions get what step 4 gives their role minus a line.
 * The commit table carries the commit-record guard, so only the TSO's decisions are let in.
 *
 * <p>Every test proves what one principal can and cannot do, and each attack of issue 32's review is a test here.
 * One secured cluster and one TSO serve the whole class (in a JVM of its own: Hadoop's login is process-wide); each
 * test writes rows of its own, and reopens the regions whose cached state it needs fresh.
 */
@Tag("secure-cluster")
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class AuthorizedHBaseTest {

    private static final byte[] F = Bytes.toBytes("f");
    private static final byte[] Q = Bytes.toBytes("q");
    /** The tables of docs/operations.md, step 4. */
    private static final TableName ACCOUNTS = TableName.valueOf("accounts");
    private static final TableName LEDGER = TableName.valueOf("ledger");
    private static final String TSO_USER = "tidemark";
    private static final String APP = "app";
    private static final String READER = "reader";
    private static final String OTHER = "other";
    /** A reader who also owns a table to write in: the attacker of issue 32's review. */
    private static final String MALLORY = "mallory";
    private static final TableName MALLORYS_TABLE = TableName.valueOf("mallorys_table");
    /** Short, so that a sweep removing invalidation markers waits seconds, not the default 35 s. */
    private static final long COMMIT_RECORD_TIMEOUT_MS = 4_000;

    @TempDir
    static Path work;

    private static SecuredMiniCluster cluster;
    private static OperatorPermissions permissions;
    private static TidemarkConfig config;
    private static TsoServer tso;
    private static final Map<String, Principal> PRINCIPALS = new HashMap<>();
    private static final AtomicInteger ROWS = new AtomicInteger();

    @BeforeAll
    static void startSecuredClusterAndTso() throws Exception {
        long started = System.nanoTime();
        cluster = SecuredMiniCluster.start(work, true);
        long hbaseUp = System.nanoTime();
        permissions = OperatorPermissions.fromOperationsDoc();
        try (Admin admin = cluster.superuser().getAdmin()) {
            permissions.apply(admin);
        }
        config = tidemarkConfig();
        // Step 6: the TSO, as its own user, creates its tables in the namespace step 4 gave it.
        tso = TsoServer.builder().config(config).hbaseConnection(cluster.connectionAs(TSO_USER)).build();
        tso.start();
        config.set(TidemarkConfig.CLIENT_TSO_ADDRESS, "127.0.0.1:" + tso.port());
        // Step 7: an administrator creates the transactional tables.
        TidemarkAdmin admin = new TidemarkAdmin(cluster.superuser(), config);
        admin.create(ACCOUNTS, EnumSet.of(TableFeature.SERVER_SIDE_SNAPSHOTS, TableFeature.COMPACTION_GC,
                TableFeature.FAST_PATH), Bytes.toString(F));
        admin.create(LEDGER, Bytes.toString(F));
        try (Admin hbase = cluster.superuser().getAdmin()) {
            hbase.createTable(TableDescriptorBuilder.newBuilder(MALLORYS_TABLE)
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.of(CommitTableSchema.FAMILY)).build());
            permissions.grantAs(hbase, READER, MALLORY, g -> true);
            OperatorPermissions.grant(hbase, new OperatorPermissions.Grant(MALLORY, "RW",
                    MALLORYS_TABLE.getNameAsString()));
        }
        System.out.printf("secured cluster: HBase with Kerberos and authorization up in %d ms, with the TSO and the"
                + " tables in %d ms%n", TimeUnit.NANOSECONDS.toMillis(hbaseUp - started),
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
    }

    private static TidemarkConfig tidemarkConfig() {
        TidemarkConfig c = new TidemarkConfig(new Configuration(false));
        EmbeddedCluster.usePatientLease(c);
        c.set(TidemarkConfig.TSO_HOST, "127.0.0.1");
        c.set(TidemarkConfig.TSO_PORT, "0");
        c.set(TidemarkConfig.TSO_HTTP_PORT, "-1");
        c.set(TidemarkConfig.TSO_COMMIT_MODE, CommitMode.LOW_LATENCY.configName());
        c.set(TidemarkConfig.TSO_CONFLICT_MAP_ENTRIES, "65536");
        // The low watermark stays where the tests put it: the TSO's own rises only once its conflict map evicts.
        c.set(TidemarkConfig.COMMIT_TABLE_GUARD, "true");
        c.set(TidemarkConfig.COMMIT_TABLE_REGIONS, "1");
        c.set(TidemarkConfig.CLIENT_POST_COMMIT, PostCommitMode.SYNC.configName());
        // Writes are sent at once, so that each refusal comes at the write that causes it and pending writers exist
        // right after their put; aReaderCannotCommitInARegion keeps them until commit, as clients do by default.
        c.set(TidemarkConfig.CLIENT_WRITE_BUFFER_BYTES, "0");
        c.set(TidemarkConfig.CLIENT_COMMIT_RECORD_TIMEOUT_MS, String.valueOf(COMMIT_RECORD_TIMEOUT_MS));
        c.set(TidemarkConfig.SWEEPER_COMMITTED_AGE_MS, "0");
        c.set(TidemarkConfig.SWEEPER_INVALIDATED_AGE_MS, String.valueOf(COMMIT_RECORD_TIMEOUT_MS + 1));
        c.set(TidemarkConfig.SWEEPER_MARKER_MARGIN_MS, "100");
        // The attacker's table looks like none of Tidemark's, and nobody but it and the administrator may read it.
        c.set(TidemarkConfig.ADMIN_NON_TRANSACTIONAL_TABLES, MALLORYS_TABLE.getNameAsString());
        return c;
    }

    @AfterAll
    static void stop() throws Exception {
        for (Principal p : PRINCIPALS.values()) {
            p.close();
        }
        if (tso != null) {
            tso.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    // --- the grants of step 4 ---

    @Test
    void stepFourGrantsEveryRoleOfTheThreatModel() {
        Set<String> granted = permissions.grants().stream().map(OperatorPermissions.Grant::user)
                .collect(Collectors.toSet());
        assertEquals(Set.of(TSO_USER, APP, READER, OTHER), granted, "the roles docs/operations.md step 4 grants");
        assertTrue(permissions.grantsTo(READER).stream().allMatch(g -> g.actions().equals("R")),
                "a reader is granted nothing but READ: " + permissions.grantsTo(READER));
    }

    @Test
    void theTsoServesWithTheGrantsOfStepFour() {
        assertTrue(tso.isActive(), "the TSO, as user " + TSO_USER + ", created its tables and took the lease");
    }

    // --- the reader ---

    @Test
    void aReaderReadsWhatTheApplicationCommitted() throws Exception {
        byte[] row = row();
        commit(principal(APP), ACCOUNTS, row, "committed");
        // What the region keeps of the cluster (commit mode, epoch, bound, keys) is read again, during the reader's
        // request: the region server reads it for itself, not with the reader's rights.
        reopen(ACCOUNTS);
        assertEquals("committed", read(principal(READER), ACCOUNTS, row));
    }

    @Test
    void aReaderInvalidatesAPendingWriterBelowItsSnapshotAndWritesNothingElse() throws Exception {
        Principal app = principal(APP);
        byte[] row = row();
        Transaction pending = pendingWrite(app, row, "pending");
        reopen(ACCOUNTS);
        assertNull(read(principal(READER), ACCOUNTS, row), "the pending write is not in the reader's snapshot");

        assertTrue(operatorsCommitTable().lookup(pending.startTimestamp()).isInvalidated(),
                "the region server invalidated the writer, as it does for any reader: the one write a reader may"
                        + " cause");
        TransactionAbortedException aborted = assertThrows(TransactionAbortedException.class,
                () -> app.tm().commit(pending));
        assertEquals(TransactionAbortedException.Reason.INVALIDATED, aborted.reason());
        try (Table raw = cluster.superuser().getTable(ACCOUNTS)) {
            assertNull(HostileRequests.shadowCell(raw, row, F, Q, pending.startTimestamp()), "nothing committed it");
        }
        assertNull(read(app, ACCOUNTS, row));
    }

    @Test
    void aReaderSeesACrashedClientsCommit() throws Exception {
        byte[] row = row();
        Transaction crashed = crashAfterCommitRecord(ACCOUNTS, row, "committed, no shadow cell");
        reopen(ACCOUNTS);
        assertEquals("committed, no shadow cell", read(principal(READER), ACCOUNTS, row),
                "the region server resolved the writer through the commit table");
        try (Table raw = cluster.superuser().getTable(ACCOUNTS)) {
            // The region server heals with the rights of the request it serves: a reader may not write the table.
            assertNull(HostileRequests.shadowCell(raw, row, F, Q, crashed.startTimestamp()));
        }
        assertTrue(operatorsCommitTable().lookup(crashed.startTimestamp()).isCommitted(),
                "the commit record stays until the sweeper completes the commit");
    }

    @Test
    void aReaderCannotWriteTheTableTheFastPathOrTheCommitTable() throws Exception {
        Principal reader = principal(READER);
        byte[] row = row();
        Transaction tx = reader.tm().begin();
        try (TTable t = reader.table(ACCOUNTS)) {
            assertDenied(assertThrows(IOException.class,
                    () -> t.put(tx, new Put(row).addColumn(F, Q, Bytes.toBytes("reader's")))), ACCOUNTS);
        }
        reader.tm().rollback(tx);
        try (Table raw = reader.hbase.getTable(ACCOUNTS)) {
            assertDenied(assertThrows(IOException.class,
                    () -> raw.put(new Put(row).addColumn(F, Q, Bytes.toBytes("reader's")))), ACCOUNTS);
        }
        try (FastPathTable fast = FastPathTable.builder(reader.hbase, ACCOUNTS).transactionManager(reader.tm())
                .build()) {
            IOException refused = assertThrows(IOException.class,
                    () -> fast.put(new Put(row).addColumn(F, Q, Bytes.toBytes("reader's"))));
            assertDenied(refused, ACCOUNTS);
        }
        try (Table raw = reader.hbase.getTable(commitTableName())) {
            long start = principal(APP).tm().begin().startTimestamp();
            assertDenied(assertThrows(IOException.class, () -> raw.put(new Put(commitSchema().rowKey(start))
                    .addColumn(CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER,
                            CommitTableSchema.INVALIDATED_VALUE))), commitTableName());
        }
        try (Table raw = cluster.superuser().getTable(ACCOUNTS)) {
            assertTrue(raw.get(new Get(row)).isEmpty(), "nothing of the reader's reached the table");
        }
    }

    /**
     * A single-region commit travels as a Get, which HBase checks against READ; the region writes it within the
     * reader's request, so HBase checks those writes against the reader too: refused, and nothing is written.
     */
    @Test
    void aReaderCannotCommitInARegion() throws Exception {
        Principal reader = principal(READER);
        byte[] row = row();
        TidemarkConfig kept = new TidemarkConfig(new Configuration(config.hadoopConfiguration()));
        kept.set(TidemarkConfig.CLIENT_WRITE_BUFFER_BYTES,
                String.valueOf(TidemarkConfig.CLIENT_WRITE_BUFFER_BYTES.defaultValue()));
        try (TransactionManager tm = TransactionManager.builder(reader.hbase).config(kept).build();
             TTable t = reader.table(ACCOUNTS)) {
            Transaction tx = tm.begin();
            t.put(tx, new Put(row).addColumn(F, Q, Bytes.toBytes("reader's")));
            assertDenied(assertThrows(IOException.class, () -> tm.commit(tx)), ACCOUNTS);
            assertEquals(0, tm.metricRegistry().counter(ClientMetrics.SINGLE_REGION_COMMITS).getCount());
        }
        try (Table raw = cluster.superuser().getTable(ACCOUNTS)) {
            assertTrue(raw.get(new Get(row).readAllVersions()).isEmpty(), "nothing of the reader's reached the table");
        }
    }

    @Test
    void aReaderCannotCreateATableOfItsOwn() throws Exception {
        try (Admin admin = principal(READER).hbase.getAdmin()) {
            assertDenied(assertThrows(IOException.class, () -> admin.createTable(TableDescriptorBuilder
                    .newBuilder(TableName.valueOf("readers_own_commits"))
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.of(CommitTableSchema.FAMILY)).build())), null);
        }
    }

    // --- issue 32's attacks on the region servers, by a reader who may write a table of its own ---

    /** Issue 32: the region server committed the writer through the forged record, and healed its shadow cell. */
    @Test
    void aReadNamingACommitTableOfTheReadersOwnCannotCommitAPendingWriter() throws Exception {
        Principal app = principal(APP);
        Principal mallory = principal(MALLORY);
        byte[] row = row();
        Transaction writer = pendingWrite(app, row, "never committed");
        long start = writer.startTimestamp();
        try (Table own = mallory.hbase.getTable(MALLORYS_TABLE)) {
            HostileRequests.forgeCommitRecord(own, buckets(), start, start + Timestamps.TSO_STEP);
        }
        long readerStart = mallory.tm().begin().startTimestamp();
        IOException refused;
        try (Table raw = mallory.hbase.getTable(ACCOUNTS)) {
            refused = HostileRequests.refusal(raw, HostileRequests.snapshotRead(row, readerStart, 0,
                    CommitMode.LOW_LATENCY, MALLORYS_TABLE, buckets()));
        }
        assertNotNull(refused, "the read was answered");
        assertTrue(String.valueOf(refused.getMessage()).contains(commitTableName().getNameAsString()),
                "the refusal names the table's own commit table: " + refused);
        try (Table raw = cluster.superuser().getTable(ACCOUNTS)) {
            assertNull(HostileRequests.shadowCell(raw, row, F, Q, start), "nothing was healed into the table");
        }
        assertTrue(operatorsCommitTable().lookup(start).isAbsent(), "the writer is still undecided");
        app.tm().rollback(writer);
    }

    /** Issue 32: a claimed commit mode steered how the region server treated pending writers. */
    @Test
    void aReadClaimingAnotherCommitModeIsRefusedBeforeItTouchesAWriter() throws Exception {
        assertHostileReadTouchesNoWriter((row, readerStart) -> HostileRequests.snapshotRead(row, readerStart, 0,
                CommitMode.BATCHED, commitTableName(), buckets()));
    }

    /** Issue 32: an epoch above the serving incarnation's made the region server invalidate its running writers. */
    @Test
    void aReadClaimingAnEpochNoTsoRecordedIsRefusedBeforeItTouchesAWriter() throws Exception {
        assertHostileReadTouchesNoWriter((row, readerStart) -> HostileRequests.snapshotRead(row, readerStart,
                readerStart - 1, CommitMode.LOW_LATENCY, commitTableName(), buckets()));
    }

    /**
     * Issue 32: the first read of a region took the low watermark from the commit table it named, and one without a
     * watermark pinned the region's garbage-collection horizon at 0.
     */
    @Test
    void aFirstReadNamingAnotherCommitTableCannotPinTheGarbageCollectionHorizon() throws Exception {
        Principal app = principal(APP);
        byte[] row = row();
        commit(app, ACCOUNTS, row, "v");
        Transaction old = app.tm().begin();
        operatorsCommitTable().raiseLowWatermark(old.startTimestamp());
        reopen(ACCOUNTS);
        Principal mallory = principal(MALLORY);
        try (Table own = mallory.hbase.getTable(MALLORYS_TABLE)) {
            HostileRequests.forgeCommitTable(own, buckets());
        }
        IOException refused;
        try (Table raw = mallory.hbase.getTable(ACCOUNTS)) {
            refused = HostileRequests.refusal(raw, HostileRequests.snapshotRead(row, old.startTimestamp(), 0,
                    CommitMode.LOW_LATENCY, MALLORYS_TABLE, buckets()));
        }
        assertNotNull(refused, "the read was answered");
        try (TTable t = app.table(ACCOUNTS)) {
            IOException tooOld = assertThrows(IOException.class, () -> t.get(old, new Get(row)),
                    "a snapshot at the persisted low watermark read the region");
            assertTrue(tooOld instanceof SnapshotTooOldException || tooOld.getCause() instanceof SnapshotTooOldException
                    || (tooOld instanceof TransactionAbortedException && ((TransactionAbortedException) tooOld)
                            .reason() == TransactionAbortedException.Reason.SNAPSHOT_TOO_OLD), tooOld.toString());
        }
    }

    /** Issue 32: a start from the future raised the fast-path clock above every TSO timestamp. */
    @Test
    void aReadClaimingAStartNoTsoHandedOutCannotMoveTheFastPathClock() throws Exception {
        byte[] row = row();
        IOException refused;
        try (Table raw = principal(MALLORY).hbase.getTable(ACCOUNTS)) {
            refused = HostileRequests.refusal(raw, HostileRequests.fromTheFuture(row));
        }
        assertNotNull(refused, "the read was answered");
        Principal app = principal(APP);
        try (FastPathTable fast = FastPathTable.builder(app.hbase, ACCOUNTS).transactionManager(app.tm()).build()) {
            long version = fast.put(new Put(row).addColumn(F, Q, Bytes.toBytes("fast")));
            Transaction later = app.tm().begin();
            assertTrue(version < later.startTimestamp(), "a fast-path version stays below the next TSO timestamp");
            try (TTable t = app.table(ACCOUNTS)) {
                t.put(later, new Put(row).addColumn(F, Q, Bytes.toBytes("generic")));
            }
            app.tm().commit(later);
        }
        assertEquals("generic", read(app, ACCOUNTS, row));
    }

    // --- another application ---

    @Test
    void anotherApplicationCannotReadTheFirstOnesTransactions() throws Exception {
        Principal other = principal(OTHER);
        byte[] row = row();
        Transaction committed = commit(principal(APP), ACCOUNTS, row, "app's");
        Transaction tx = other.tm().begin();
        try (TTable t = other.table(ACCOUNTS)) {
            assertDenied(assertThrows(IOException.class, () -> t.get(tx, new Get(row))), ACCOUNTS);
        }
        other.tm().rollback(tx);
        try (Table raw = other.hbase.getTable(ACCOUNTS)) {
            assertDenied(assertThrows(IOException.class, () -> raw.get(new Get(row))), ACCOUNTS);
        }
        IOException cannotSettle = assertThrows(IOException.class,
                () -> other.tm().outcome(committed.startTimestamp()));
        assertTrue(cannotSettle.getMessage().contains(ACCOUNTS.getNameAsString()), cannotSettle.getMessage());
        assertTrue(operatorsCommitTable().lookup(committed.startTimestamp()).isAbsent(),
                "a refused settlement invalidates nothing");
    }

    @Test
    void anotherApplicationCannotCommitTheFirstOnesTransaction() throws Exception {
        Principal app = principal(APP);
        Principal other = principal(OTHER);
        byte[] row = row();
        Transaction pending = pendingWrite(app, row, "app's");
        long start = pending.startTimestamp();
        long commit = start + Timestamps.TSO_STEP;
        CommitRecord othersOwn = heldCommitRecord(other, LEDGER);
        try (Table raw = other.hbase.getTable(commitTableName())) {
            byte[] key = commitSchema().rowKey(start);
            assertNotSealed(assertThrows(IOException.class, () -> raw.put(new Put(key).addColumn(
                    CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER, Bytes.toBytes(commit)))));
            byte[] borrowed = Bytes.add(Bytes.toBytes(othersOwn.commitTimestamp()),
                    othersOwn.certificate().encode());
            assertNotSealed(assertThrows(IOException.class, () -> raw.put(new Put(key).addColumn(
                    CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER, borrowed))));
        }
        // Nor through the TSO: a COMMIT needs the token the TSO gave the transaction's client.
        try (NettyTsoClient tsoClient = NettyTsoClient.create(config, other.hbase.getConfiguration())) {
            ExecutionException refused = assertThrows(ExecutionException.class,
                    () -> tsoClient.commit(start, 0, new long[] {1}, new long[] {1}).get(30, TimeUnit.SECONDS));
            assertTrue(refused.getCause() instanceof TsoUnavailableException
                    && ((TsoUnavailableException) refused.getCause()).serverErrorCode() == ErrorCode.NOT_AUTHORIZED,
                    refused.toString());
        }
        assertTrue(operatorsCommitTable().lookup(start).isAbsent(), "the transaction is still undecided");
        app.tm().commit(pending);
        assertEquals("app's", read(app, ACCOUNTS, row), "its own client commits it");
    }

    /**
     * docs/security.md, "Who may invalidate": an application may write an invalidation marker for any undecided
     * start (it can only abort a transaction no decision reached yet), but never remove one, nor a commit record.
     */
    @Test
    void anotherApplicationMayAbortTheFirstOnesPendingWriterOnlyByInvalidatingIt() throws Exception {
        Principal app = principal(APP);
        Principal other = principal(OTHER);
        byte[] row = row();
        Transaction pending = pendingWrite(app, row, "app's");
        long start = pending.startTimestamp();
        HBaseCommitTable othersView = new HBaseCommitTable(other.hbase, new CommitTableSettings(config));
        assertTrue(othersView.invalidate(start).isInvalidated(), "anyone with WRITE on the commit table may");
        try (Table raw = other.hbase.getTable(commitTableName())) {
            assertNotSealed(assertThrows(IOException.class, () -> raw.delete(new Delete(commitSchema()
                    .rowKey(start)))));
        }
        othersView.undoInvalidation(start);
        assertTrue(operatorsCommitTable().lookup(start).isInvalidated(), "an undo without the keys changes nothing");
        TransactionAbortedException aborted = assertThrows(TransactionAbortedException.class,
                () -> app.tm().commit(pending));
        assertEquals(TransactionAbortedException.Reason.INVALIDATED, aborted.reason());

        byte[] committedRow = row();
        Transaction committed = crashAfterCommitRecord(ACCOUNTS, committedRow, "committed");
        try (Table raw = other.hbase.getTable(commitTableName())) {
            assertNotSealed(assertThrows(IOException.class, () -> raw.delete(new Delete(commitSchema()
                    .rowKey(committed.startTimestamp())))));
        }
        assertTrue(operatorsCommitTable().lookup(committed.startTimestamp()).isCommitted(),
                "the commit record stays until its committer or the sweeper releases it");
        assertEquals("committed", read(app, ACCOUNTS, committedRow));
    }

    // --- certified commits, as the application over its secured connection ---

    @Test
    void anApplicationCannotCommitAStartTimestampItDidNotBegin() throws Exception {
        Principal app = principal(APP);
        long start = principal(OTHER).tm().begin().startTimestamp();
        try (Table raw = app.hbase.getTable(commitTableName())) {
            assertNotSealed(assertThrows(IOException.class, () -> raw.put(new Put(commitSchema().rowKey(start))
                    .addColumn(CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER,
                            Bytes.toBytes(start + Timestamps.TSO_STEP)))));
            long neverBegun = start + 1;
            byte[] madeUp = Bytes.add(Bytes.toBytes(neverBegun + Timestamps.TSO_STEP), new byte[Seal.BYTES]);
            assertNotSealed(assertThrows(IOException.class, () -> raw.put(new Put(commitSchema().rowKey(neverBegun))
                    .addColumn(CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER, madeUp))));
        }
        assertTrue(operatorsCommitTable().lookup(start).isAbsent());
    }

    @Test
    void anApplicationCannotCommitATransactionTheTsoAborted() throws Exception {
        Principal app = principal(APP);
        byte[] row = row();
        HeldCommitRecords held = new HeldCommitRecords(new HBaseCommitTable(app.hbase,
                new CommitTableSettings(config)));
        LostConflict conflict;
        try (TransactionManager holding = TransactionManager.builder(app.hbase).config(config)
                .commitRecordWriter(held).build();
             TTable t = app.table(ACCOUNTS)) {
            conflict = LostConflict.between(holding, held, app.tm(), t, row, F, Q);
        }
        CommitRecord winnersRecord = conflict.winnersRecord();
        long start = conflict.loser().startTimestamp();
        long commit = winnersRecord.commitTimestamp() + Timestamps.TSO_STEP;
        try (Table raw = app.hbase.getTable(commitTableName())) {
            byte[] key = commitSchema().rowKey(start);
            byte[] borrowed = Bytes.add(Bytes.toBytes(commit), winnersRecord.certificate().encode());
            assertNotSealed(assertThrows(IOException.class, () -> raw.put(new Put(key).addColumn(
                    CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER, borrowed))));
            byte[] madeUp = Bytes.add(Bytes.toBytes(commit), new byte[Seal.BYTES]);
            assertNotSealed(assertThrows(IOException.class, () -> raw.put(new Put(key).addColumn(
                    CommitTableSchema.FAMILY, CommitTableSchema.COMMIT_QUALIFIER, madeUp))));
        }
        assertTrue(operatorsCommitTable().lookup(start).isAbsent(), "the aborted transaction stays uncommitted");
        assertEquals("winner", read(app, ACCOUNTS, row));
    }

    /**
     * The commit-record guard reads the TSOs' keys from the timestamp table when its region opens afresh: it reads
     * them as the region server, so the first commit after a reopening, by an application that may not read the
     * timestamp table, is let in.
     */
    @Test
    void anApplicationCommitsFirstAfterTheCommitTableReopened() throws Exception {
        reopen(commitTableName());
        byte[] row = row();
        commit(principal(APP), ACCOUNTS, row, "first after reopening");
        assertEquals("first after reopening", read(principal(READER), ACCOUNTS, row));
    }

    /** Issue 32: a TSO paused past its lease wrote its older, lower low watermark over its successor's. */
    @Test
    void theLowWatermarkNeitherFallsNorRisesWithoutTheTsosCertificate() throws Exception {
        HBaseCommitTable operators = operatorsCommitTable();
        long raised = principal(APP).tm().begin().startTimestamp();
        operators.raiseLowWatermark(raised);
        try (Table raw = principal(APP).hbase.getTable(commitTableName())) {
            assertNotSealed(assertThrows(IOException.class, () -> raw.put(lowWatermark(Long.MAX_VALUE, null))),
                    "a raised watermark would abort every running transaction");
        }
        DecisionKey key = new TimestampTableKeys(principal(TSO_USER).hbase, timestampTableName()).newest();
        long lower = raised - Timestamps.TSO_STEP;
        try (Table raw = principal(TSO_USER).hbase.getTable(commitTableName())) {
            assertNotSealed(assertThrows(IOException.class,
                    () -> raw.put(lowWatermark(lower, key.lowWatermarkCertificate(lower)))),
                    "the TSO's own certificate does not lower it");
        }
        assertEquals(raised, operators.readLowWatermark());
    }

    /** Issue 32: read-modify-write at SNAPSHOT_EXCLUDE_CURRENT ignored the transaction's current writes. */
    @Test
    void readModifyWriteSeesTheTransactionsOwnCurrentWrites() throws Exception {
        Principal app = principal(APP);
        byte[] row = row();
        Transaction tx = app.tm().begin();
        tx.checkpoint();
        tx.setVisibilityLevel(VisibilityLevel.SNAPSHOT_EXCLUDE_CURRENT);
        try (TTable t = app.table(ACCOUNTS)) {
            t.increment(tx, new Increment(row).addColumn(F, Q, 1));
            t.increment(tx, new Increment(row).addColumn(F, Q, 1));
        }
        app.tm().commit(tx);
        Transaction reader = principal(READER).tm().begin();
        try (TTable t = principal(READER).table(ACCOUNTS)) {
            assertEquals(2L, Bytes.toLong(t.get(reader, new Get(row)).getValue(F, Q)));
        }
        principal(READER).tm().commit(reader);
    }

    /**
     * Settling a start timestamp searches every table that may hold its cells; an application sees its own tables
     * (through their observer) and Tidemark's are never searched, so it needs to name only the other tenants' tables
     * it may not read.
     */
    @Test
    void anApplicationSettlesALostTransactionNamingOnlyTheTablesItCannotRead() throws Exception {
        Principal app = principal(APP);
        Transaction lost = commit(app, ACCOUNTS, row(), "committed and released");
        TidemarkConfig naming = new TidemarkConfig(new Configuration(config.hadoopConfiguration()));
        naming.set(TidemarkConfig.ADMIN_NON_TRANSACTIONAL_TABLES, MALLORYS_TABLE.getNameAsString() + ","
                + LEDGER.getNameAsString());
        try (TransactionManager settling = TransactionManager.builder(app.hbase).config(naming).build()) {
            TransactionOutcome outcome = settling.outcome(lost.startTimestamp());
            assertTrue(outcome.isCommitted(), outcome.toString());
            assertEquals(lost.commitTimestamp(), outcome.commitTimestamp());
        }
    }

    // --- the sweeper, run as the TSO's user ---

    @Test
    void theSweeperRunAsTheTsosUserCompletesACrashedClientsCommit() throws Exception {
        byte[] row = row();
        Transaction crashed = crashAfterCommitRecord(ACCOUNTS, row, "completed by the sweeper");
        SweepResult result = new CommitTableSweeper(principal(TSO_USER).hbase, config).sweepAll();

        assertTrue(result.completed() >= 1, result.toString());
        assertTrue(operatorsCommitTable().lookup(crashed.startTimestamp()).isAbsent(),
                "released with the token the sweeper signed with the TSO's key");
        try (Table raw = cluster.superuser().getTable(ACCOUNTS)) {
            assertNotNull(HostileRequests.shadowCell(raw, row, F, Q, crashed.startTimestamp()),
                    "the sweeper wrote the shadow cell before it released the record");
        }
        assertEquals("completed by the sweeper", read(principal(READER), ACCOUNTS, row));
    }

    // --- fewer permissions than step 4 ---

    @Test
    void aSweeperWithoutGrantsOnTheTablesRefusesNamingThem() throws Exception {
        Principal lacking = principalWithFewer(TSO_USER, "sweeper_without_tables", g -> g.isNamespace());
        byte[] row = row();
        Transaction crashed = crashAfterCommitRecord(ACCOUNTS, row, "not lost");
        IOException refused = assertThrows(IOException.class,
                () -> new CommitTableSweeper(lacking.hbase, config).sweepAll());
        assertTrue(refused.getMessage().contains(ACCOUNTS.getNameAsString())
                && refused.getMessage().contains(LEDGER.getNameAsString())
                && refused.getMessage().contains("step 4"), refused.getMessage());
        assertTrue(operatorsCommitTable().lookup(crashed.startTimestamp()).isCommitted(),
                "a refused sweep releases nothing");
        assertEquals("not lost", read(principal(READER), ACCOUNTS, row));
    }

    @Test
    void anApplicationWithoutTheCommitTableGrantIsToldWhyItsCommitFailed() throws Exception {
        Principal lacking = principalWithFewer(APP, "app_without_commits",
                g -> !g.target().equals(commitTableName().getNameAsString()));
        byte[] row = row();
        Transaction tx = lacking.tm().begin();
        try (TTable t = lacking.table(ACCOUNTS)) {
            t.put(tx, new Put(row).addColumn(F, Q, Bytes.toBytes("never committed")));
        }
        TransactionException failed = assertThrows(TransactionException.class, () -> lacking.tm().commit(tx));
        assertTrue(failed.getMessage().contains("HBase authorization")
                && failed.getMessage().contains(commitTableName().getNameAsString())
                && failed.getMessage().contains("step 4"), failed.getMessage());
        assertNull(read(principal(READER), ACCOUNTS, row), "it did not commit");
        // Settling a start timestamp searches every table that may hold its cells: the sweeper's user sees them all.
        assertEquals(TransactionOutcome.Status.ABORTED,
                principal(TSO_USER).tm().outcome(tx.startTimestamp()).status(), "a user with the grants settles it");
    }

    @Test
    void aTsoWithoutItsGrantsFailsToStartSayingWhatToGrant() throws Exception {
        Principal lacking = principalWithFewer(TSO_USER, "tso_without_grants", g -> false);
        AccessDeniedException refused = assertThrows(AccessDeniedException.class,
                () -> TsoServer.builder().config(tidemarkConfig()).hbaseConnection(lacking.hbase).build());
        assertTrue(refused.getMessage().contains("grant '<the TSO's user>', 'RWC', '@"
                + commitTableName().getNamespaceAsString() + "'")
                && refused.getMessage().contains("step 4"), refused.getMessage());
        assertTrue(tso.isActive(), "the serving TSO is untouched");
    }

    // --- helpers ---

    /** One user of the cluster, with its own authenticated connection and transaction manager. */
    private static final class Principal implements AutoCloseable {
        final Connection hbase;
        private TransactionManager tm;

        Principal(Connection hbase) {
            this.hbase = hbase;
        }

        synchronized TransactionManager tm() {
            if (tm == null) {
                tm = TransactionManager.builder(hbase).config(config).build();
            }
            return tm;
        }

        TTable table(TableName name) throws IOException {
            return new TTable(hbase, name);
        }

        @Override
        public synchronized void close() {
            if (tm != null) {
                tm.close();
            }
        }
    }

    private static synchronized Principal principal(String user) throws Exception {
        Principal p = PRINCIPALS.get(user);
        if (p == null) {
            p = new Principal(cluster.connectionAs(user));
            PRINCIPALS.put(user, p);
        }
        return p;
    }

    /** A new user granted what step 4 grants {@code role}, but only the grants {@code kept} accepts. */
    private static Principal principalWithFewer(String role, String user,
            Predicate<OperatorPermissions.Grant> kept) throws Exception {
        try (Admin admin = cluster.superuser().getAdmin()) {
            permissions.grantAs(admin, role, user, kept);
        }
        return principal(user);
    }

    /** A row no other test writes. */
    private static byte[] row() {
        return Bytes.toBytes("row-" + ROWS.incrementAndGet());
    }

    private static Transaction commit(Principal p, TableName table, byte[] row, String value) throws IOException {
        Transaction tx = p.tm().begin();
        try (TTable t = p.table(table)) {
            t.put(tx, new Put(row).addColumn(F, Q, Bytes.toBytes(value)));
        }
        p.tm().commit(tx);
        return tx;
    }

    /** A transaction of {@code p} that wrote {@code value} to {@code row} of accounts and has not committed. */
    private static Transaction pendingWrite(Principal p, byte[] row, String value) throws IOException {
        Transaction tx = p.tm().begin();
        try (TTable t = p.table(ACCOUNTS)) {
            t.put(tx, new Put(row).addColumn(F, Q, Bytes.toBytes(value)));
        }
        return tx;
    }

    /** The value of {@code row} in a new snapshot of {@code p}, or null. */
    private static String read(Principal p, TableName table, byte[] row) throws IOException {
        Transaction tx = p.tm().begin();
        try (TTable t = p.table(table)) {
            byte[] value = t.get(tx, new Get(row)).getValue(F, Q);
            return value == null ? null : Bytes.toString(value);
        } finally {
            p.tm().commit(tx);
        }
    }

    /** A transaction of the application whose client died right after its commit record was written. */
    private static Transaction crashAfterCommitRecord(TableName table, byte[] row, String value) throws Exception {
        Principal app = principal(APP);
        try (TransactionManager dying = StagedFailures.withoutShadowCells(TransactionManager.builder(app.hbase)
                .config(config));
             TTable t = app.table(table)) {
            Transaction tx = dying.begin();
            t.put(tx, new Put(row).addColumn(F, Q, Bytes.toBytes(value)));
            dying.commit(tx);
            return tx;
        }
    }

    /** A commit record the TSO sealed for a transaction of {@code p}, which commits. */
    private static CommitRecord heldCommitRecord(Principal p, TableName table) throws Exception {
        HeldCommitRecords held = new HeldCommitRecords(new HBaseCommitTable(p.hbase, new CommitTableSettings(config)));
        try (TransactionManager holding = TransactionManager.builder(p.hbase).config(config)
                .commitRecordWriter(held).build();
             TTable t = p.table(table)) {
            Transaction tx = holding.begin();
            t.put(tx, new Put(row()).addColumn(F, Q, Bytes.toBytes("own")));
            CompletableFuture<Void> committing = HeldCommitRecords.commitInBackground(holding, tx);
            held.awaitHeld();
            CommitRecord record = held.heldRecord();
            held.release();
            committing.get(30, TimeUnit.SECONDS);
            return record;
        }
    }

    /**
     * A pending writer of the application, a hostile read below which it lies (built by {@code hostile} for a row
     * and a reader's start), sent by the attacker: refused, and the writer still commits.
     */
    private static void assertHostileReadTouchesNoWriter(HostileRead hostile) throws Exception {
        Principal app = principal(APP);
        byte[] row = row();
        Transaction writer = pendingWrite(app, row, "pending");
        Principal mallory = principal(MALLORY);
        long readerStart = mallory.tm().begin().startTimestamp();
        IOException refused;
        try (Table raw = mallory.hbase.getTable(ACCOUNTS)) {
            refused = HostileRequests.refusal(raw, hostile.of(row, readerStart));
        }
        assertNotNull(refused, "the read was answered");
        assertFalse(operatorsCommitTable().lookup(writer.startTimestamp()).isInvalidated(),
                "the refused read invalidated nobody");
        app.tm().commit(writer);
        assertEquals("pending", read(app, ACCOUNTS, row));
    }

    @FunctionalInterface
    private interface HostileRead {
        Get of(byte[] row, long readerStart);
    }

    private static Put lowWatermark(long value, Seal certificate) {
        Put put = new Put(CommitTableSchema.LOW_WATERMARK_ROW).addColumn(CommitTableSchema.FAMILY,
                CommitTableSchema.LOW_WATERMARK_QUALIFIER, Bytes.toBytes(value));
        if (certificate != null) {
            put.setAttribute(CommitTableSchema.LOW_WATERMARK_SEAL_ATTRIBUTE, certificate.encode());
        }
        return put;
    }

    /** Disables and enables {@code table}: its regions open afresh, with no state cached from earlier requests. */
    private static void reopen(TableName table) throws IOException {
        try (Admin admin = cluster.superuser().getAdmin()) {
            admin.disableTable(table);
            admin.enableTable(table);
        }
    }

    /** The commit table as an operator's tool sees it: with the TSOs' keys, read by the TSO's user. */
    private static HBaseCommitTable operatorsCommitTable() throws Exception {
        Connection tidemark = principal(TSO_USER).hbase;
        return new HBaseCommitTable(tidemark, commitTableName(), commitSchema(),
                new TimestampTableKeys(tidemark, timestampTableName()));
    }

    private static TableName commitTableName() {
        return new CommitTableSettings(config).tableName();
    }

    private static CommitTableSchema commitSchema() {
        return new CommitTableSettings(config).schema();
    }

    private static int buckets() {
        return new CommitTableSettings(config).buckets();
    }

    private static TableName timestampTableName() {
        return config.get(TidemarkConfig.TIMESTAMP_TABLE);
    }

    /** HBase authorization refused it; {@code table}, when given, is the table HBase named. */
    private static void assertDenied(IOException refused, TableName table) {
        AccessDeniedException denied = Authorization.deniedIn(refused);
        assertNotNull(denied, "not refused by HBase authorization: " + refused);
        if (table != null) {
            assertTrue(String.valueOf(denied.getMessage()).contains(table.getNameAsString()), denied.getMessage());
        }
    }

    /** The commit-record guard refused it: nothing the TSO sealed entitles it. */
    private static void assertNotSealed(IOException refused) {
        assertNotSealed(refused, "");
    }

    private static void assertNotSealed(IOException refused, String why) {
        assertTrue(CommitTableSchema.isUnentitledRemoval(refused), why + ": " + refused);
    }
}
