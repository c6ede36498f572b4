package io.tidemark.client;

import com.codahale.metrics.MetricRegistry;
import io.tidemark.client.admin.TransactionalTables;
import io.tidemark.client.tso.BeginResult;
import io.tidemark.client.tso.CommitResult;
import io.tidemark.client.tso.NettyTsoClient;
import io.tidemark.client.tso.TsoClient;
import io.tidemark.client.tso.TsoUnavailableException;
import io.tidemark.committable.CommitRecord;
import io.tidemark.committable.CommitRecordDeadline;
import io.tidemark.committable.CommitState;
import io.tidemark.committable.CommitTable;
import io.tidemark.committable.CommitTableSettings;
import io.tidemark.committable.HBaseAsyncCommitBatches;
import io.tidemark.committable.HBaseCommitTable;
import io.tidemark.concurrent.Futures;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.gc.SnapshotTooOldException;
import io.tidemark.singleregion.SingleRegionCommitRequest;
import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.ErrorCode;
import io.tidemark.timestamp.Timestamps;
import io.tidemark.writeset.ConflictLevel;
import io.tidemark.writeset.WriteSetIds;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Begins, commits and rolls back snapshot-isolation transactions over one HBase connection. Thread-safe; create one
 * per application and share it.
 *
 * <p>Commit: a transaction that wrote nothing commits at once. Otherwise the TSO checks conflicts and hands out a
 * commit timestamp; in low-latency mode the client then writes its own commit record (put-if-absent, racing readers
 * that may invalidate it), in batched mode the TSO already did. When the outcome is unknown (no answer from the TSO,
 * or an error writing the record), the manager invalidates its own transaction: whichever of commit and invalidation
 * is in the commit table is the outcome. Finally the shadow cells are written and the commit record removed.
 *
 * <p>The commit-record write never starts, nor is retried, later than {@code tidemark.client.commit-record-timeout-ms}
 * after COMMIT was sent, and HBase's timeouts of that write end there too; past that deadline the outcome is settled
 * by the invalidation above. The commit-table sweeper's proof that it may remove an invalidation marker rests on this
 * bound (docs/coprocessors.md).
 *
 * <p>{@link #outcome(long)} settles a transaction an application lost track of.
 */
public final class TransactionManager implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionManager.class);
    /** Attempts of {@link #fence}: each one loses only to a fence on the same table raised meanwhile. */
    private static final int MAX_FENCE_ATTEMPTS = 5;

    /** A read-only transaction that reuses a timestamp never sends COMMIT, so it holds no commit token. */
    private static final long NO_COMMIT_TOKEN = 0;

    private final TsoClient tso;
    private final boolean ownsTso;
    private final CommitTableSettings commitTableSettings;
    private final CommitTable commitTable;
    private final CommitRecordWriter commitRecordWriter;
    private final @Nullable AutoCloseable ownedCommitRecordWriter;
    private final TentativeCells tentativeCells;
    private final TransactionalTableCheck tableCheck;
    private final OutcomeSettler outcomeSettler;
    /** The level this manager insists on, or null to follow the cluster's. */
    private final ConflictLevel requiredConflictLevel;
    private final PostCommitMode postCommitMode;
    private final @Nullable AsyncPostCommits asyncPostCommits;
    private final ClientMetrics metrics = new ClientMetrics();
    private final CommitPhaseListener commitPhaseListener;
    private final RecentSnapshot recentSnapshot = new RecentSnapshot();
    private final Connection connection;
    private final long writeBufferBytes;
    /** Null when single-region commits are off ({@code tidemark.client.single-region-commit}). */
    private final @Nullable SingleRegionCommitter singleRegionCommitter;
    /** The commit table through HBase's asynchronous client: group commit, and the non-blocking API's steps. */
    private final HBaseAsyncCommitBatches asyncCommitTable;
    private final CommitProtocol commitProtocol;
    private final CommitProtocol.Io blockingIo = new BlockingIo();
    /** Whether {@link #begin()} leaves the BEGIN to the transaction's first need (tidemark.client.lazy-begin). */
    private final boolean lazyBegin;
    /**
     * The newest timestamp this manager obtained from the TSO or committed at: a write-only single-region commit is
     * minted above it, so that it follows every transaction of this client that ended before it.
     */
    private final AtomicLong session = new AtomicLong();
    private volatile boolean closed;

    private TransactionManager(Builder b, TidemarkConfig config) {
        ClientSettings settings = new ClientSettings(config);
        this.requiredConflictLevel = b.conflictLevel != null ? b.conflictLevel : settings.requiredConflictLevel();
        this.postCommitMode = b.postCommitMode != null ? b.postCommitMode : settings.postCommitMode();
        this.commitPhaseListener = b.commitPhaseListener;
        this.connection = b.connection;
        this.writeBufferBytes = settings.writeBufferBytes();
        this.singleRegionCommitter = settings.singleRegionCommit() ? new SingleRegionCommitter(b.connection,
                settings.fastPathOperationTimeoutMillis(), this::freshTimestamp) : null;
        this.lazyBegin = settings.lazyBegin();
        this.commitTableSettings = settings.commitTable();
        this.tableCheck = new TransactionalTableCheck(settings.minFamilyVersions(), commitTableSettings.tableName());
        HBaseCommitTable hbaseCommitTable = new HBaseCommitTable(b.connection, commitTableSettings);
        this.commitTable = hbaseCommitTable;
        this.outcomeSettler = new OutcomeSettler(b.connection, commitTable, new TransactionalTables(settings));
        int commitRecordRoundTrips = commitTableSettings.writeParallelism();
        this.tentativeCells = new TentativeCells(b.connection, b.shadowCellWriter != null ? b.shadowCellWriter
                : TentativeCells.directWriter(b.connection));
        // Threads last: everything above may still refuse the configuration.
        this.ownsTso = b.tsoClient == null;
        this.tso = b.tsoClient != null ? b.tsoClient : NettyTsoClient.create(config, b.connection.getConfiguration());
        this.asyncCommitTable = new HBaseAsyncCommitBatches(hbaseCommitTable, b.connection);
        if (b.commitRecordWriter != null) {
            this.commitRecordWriter = b.commitRecordWriter;
            this.ownedCommitRecordWriter = null;
        } else {
            GroupCommitRecordWriter groupWriter = new GroupCommitRecordWriter(hbaseCommitTable, asyncCommitTable,
                    commitRecordRoundTrips, metrics::commitRecordBatch);
            this.commitRecordWriter = groupWriter;
            this.ownedCommitRecordWriter = groupWriter;
        }
        this.asyncPostCommits = postCommitMode == PostCommitMode.ASYNC ? new AsyncPostCommits() : null;
        this.commitProtocol = new CommitProtocol(commitTableSettings, metrics, recentSnapshot, commitPhaseListener,
                postCommitMode);
        metrics.startJmx(settings.metricsName());
    }

    /** Starts building a manager that works over {@code connection} (which stays the caller's to close). */
    public static Builder builder(Connection connection) {
        return new Builder(connection);
    }

    /**
     * Begins a transaction: its snapshot is everything committed before the TSO's new start timestamp. The
     * transaction follows the commit mode, conflict level and epoch of the TSO incarnation that answered.
     *
     * @throws TransactionException when no TSO answered within the request timeout, or the cluster's conflict level
     *         is not the one this manager was configured with
     */
    public Transaction begin() throws TransactionException {
        if (lazyBegin) {
            checkOpen();
            return new Transaction(this);
        }
        return beginAtTso(false);
    }

    /**
     * The BEGIN of a transaction begun lazily, sent when it first needs its start timestamp.
     *
     * @throws TransactionException no TSO answered, or the cluster's conflict level is not the one required
     */
    BeginResult beginLater() throws TransactionException {
        long sent = System.nanoTime();
        BeginResult begun = awaitBegin();
        accept(begun, sent);
        return begun;
    }

    /** Raises this manager's session timestamp to {@code timestamp} (a start or commit timestamp it learned). */
    void advanceSession(long timestamp) {
        session.accumulateAndGet(timestamp, Math::max);
    }

    /**
     * Begins a read-only transaction whose snapshot may be up to {@code staleness} behind real time: it reuses the
     * newest timestamp this manager knows to be a safe snapshot (the commit timestamp of one of its commits, or the
     * start timestamp of a read-only transaction) when that was obtained within the bound, with no TSO round trip;
     * otherwise, and always for {@link Staleness#none()}, it asks the TSO as {@link #begin()} does. The snapshot is
     * consistent either way (snapshot isolation holds); it may miss transactions that committed during the last
     * {@code staleness}, including this client's own (docs/api.md, "Read-only transactions"). Writes in the
     * transaction fail with {@link TransactionStateException}; {@link #commit} ends it without a TSO round trip.
     *
     * @throws TransactionException when a TSO round trip was needed and no TSO answered
     */
    public Transaction beginReadOnly(Staleness staleness) throws TransactionException {
        checkOpen();
        RecentSnapshot.Entry recent = recentSnapshot.within(staleness, System.nanoTime());
        if (recent != null) {
            return new Transaction(this, recent.timestamp, NO_COMMIT_TOKEN, recent.incarnation, true,
                    recent.obtainedNanos);
        }
        return beginAtTso(true);
    }

    private Transaction beginAtTso(boolean readOnly) throws TransactionException {
        long sent = System.nanoTime();
        return begun(awaitBegin(), readOnly, sent);
    }

    /** The TSO's answer to a BEGIN sent now. */
    private BeginResult awaitBegin() throws TransactionException {
        checkOpen();
        try {
            return Futures.await(tso.begin(), "the BEGIN request");
        } catch (IOException e) {
            throw beginFailed(e);
        }
    }

    /**
     * Takes the TSO's answer to a BEGIN sent at {@code sent}: counted, its conflict level checked, its start timestamp
     * raising the session.
     *
     * @throws TransactionException the cluster's conflict level is not the one this manager was configured with
     */
    private void accept(BeginResult begun, long sent) throws TransactionException {
        metrics.begun(sent);
        checkConflictLevel(begun);
        advanceSession(begun.startTimestamp());
    }

    /** Why no transaction began: the TSO did not answer BEGIN. */
    TransactionException beginFailed(IOException e) {
        return new TransactionException("could not begin a transaction: the TSO did not answer (" + e.getMessage()
                + "); check that it runs and that this client finds it (" + tso.describeTarget() + ")", e);
    }

    /**
     * The transaction the TSO's answer to a BEGIN sent at {@code sent} starts, for both APIs.
     *
     * @throws TransactionException the cluster's conflict level is not the one this manager was configured with
     */
    Transaction begun(BeginResult begun, boolean readOnly, long sent) throws TransactionException {
        accept(begun, sent);
        Transaction tx = new Transaction(this, begun.startTimestamp(), begun.commitToken(), begun.incarnation(),
                readOnly, sent);
        if (readOnly) {
            recentSnapshot.offer(tx.startTimestamp(), tx.incarnation(), sent);
        }
        return tx;
    }

    /** Refuses a TSO whose conflict level is not the one this manager was configured with. */
    private void checkConflictLevel(BeginResult begun) throws TransactionException {
        ConflictLevel clusterLevel = begun.incarnation().conflictLevel();
        if (requiredConflictLevel != null && requiredConflictLevel != clusterLevel) {
            throw new TransactionException("this client is configured for conflict level "
                    + requiredConflictLevel.configName() + " but the cluster's TSO uses "
                    + clusterLevel.configName() + ": clients sending row ids and clients sending cell ids would miss"
                    + " each other's conflicts. Remove " + TidemarkConfig.CLIENT_CONFLICT_LEVEL + " (and the"
                    + " builder's conflictLevel) to follow the cluster, or change the cluster's level"
                    + " (docs/operations.md#changing-cluster-settings)");
        }
    }

    /**
     * Raises a fence on {@code table}: every transaction that began before the fence and writes the table aborts
     * at commit with {@link TransactionAbortedException.Reason#FENCED}; transactions that begin after it are not
     * affected. For DDL: fence, then change the table, knowing no older transaction will commit a write to it. The
     * fence is a transaction of its own that writes no cell, committed by the TSO.
     *
     * @return the fence's timestamp: transactions that began at or before it and write the table cannot commit
     * @throws TransactionException when the TSO did not answer, or concurrent fences kept winning
     */
    public long fence(TableName table) throws TransactionException {
        long tableId = WriteSetIds.table(table.getName());
        for (int attempt = 1; ; attempt++) {
            Transaction fence = beginAtTso(false);
            CommitResult result;
            try {
                result = Futures.await(tso.commit(fence.startTimestamp(), fence.commitToken(),
                        new long[] {WriteSetIds.fence(tableId)}, new long[] {tableId}), "the COMMIT request");
            } catch (IOException e) {
                if (e instanceof TsoUnavailableException
                        && ((TsoUnavailableException) e).serverErrorCode() == ErrorCode.NOT_AUTHORIZED) {
                    // Only the clients the TSO's tidemark.tso.fence.allowed-clients names may fence: not worth a retry.
                    throw new TransactionException("could not raise a fence on " + table.getNameAsString() + ": "
                            + e.getMessage(), e);
                }
                throw new TransactionException("could not raise a fence on " + table.getNameAsString()
                        + ": the TSO did not answer (" + e.getMessage() + "); raise it again", e);
            }
            if (result.isCommitted()) {
                fence.markCommitted(result.commitTimestamp());
                removeFenceRecord(fence, result.recordOf(fence.startTimestamp(), Durability.USE_DEFAULT));
                return result.commitTimestamp();
            }
            fence.markRolledBack();
            if (attempt == MAX_FENCE_ATTEMPTS) {
                throw new TransactionException("could not raise a fence on " + table.getNameAsString() + " in "
                        + attempt + " attempts: " + result.abortReason() + " each time");
            }
        }
    }

    /** A batched-mode TSO wrote a commit record for the fence; nothing reads it, so it goes at once. */
    private void removeFenceRecord(Transaction fence, CommitRecord record) {
        if (fence.commitMode() != CommitMode.BATCHED) {
            return;
        }
        try {
            commitTable.release(record);
        } catch (IOException e) {
            // Harmless: the sweeper removes old committed records, and a fence has no cells to complete.
            LOG.warn("Could not remove the commit record of fence {}: {}", fence.startTimestamp(), e.toString());
        }
    }

    /**
     * Commits {@code tx}: afterwards its writes are visible to every transaction that begins later. Operations
     * issued through an {@link AsyncTTable} and still in flight are waited for first; if one of its writes failed,
     * the transaction aborts with {@link TransactionAbortedException.Reason#WRITE_FAILED}.
     *
     * @throws TransactionAbortedException the transaction did not commit and its writes were removed; see
     *         {@link TransactionAbortedException#reason()}
     * @throws TransactionException the outcome could not be determined (TSO and commit table both unreachable); the
     *         transaction is then {@link TransactionState#OUTCOME_UNKNOWN}
     * @throws WriteSetTooLargeException the transaction wrote more cells (or rows) than the TSO accepts in one
     *         commit; it was rolled back before anything was sent to the TSO
     */
    public void commit(Transaction tx) throws TransactionException {
        tx.checkFinishableBy(this, "commit");
        checkOpen();
        awaitInFlightOperations(tx);
        if (tx.writeSet().isEmpty() && tx.readBeforeBegin() == null) {
            tx.beginIfNotBegun(); // it commits at its start timestamp
        }
        if (commitProtocol.committedWithoutWrites(tx)) {
            return;
        }
        long called = System.nanoTime();
        try {
            if (committedInRegion(tx)) {
                return;
            }
            tx.beginIfNotBegun();
            join(commitProtocol.commitThroughTso(tx, blockingIo));
        } finally {
            metrics.commitFinished(called);
        }
    }

    /**
     * Commits {@code tx} with one request to the region that holds every row it wrote, when it can
     * (docs/architecture.md, "Single-region commit"): single-region commits are on, every write is still in the
     * transaction's buffer, all of them fall in one region (by the client's cached locations) of one table with the
     * fast path, and no checkpoint was taken. False when it cannot, or when the region declined: the transaction then
     * commits through the TSO, which decides as it always did.
     */
    private boolean committedInRegion(Transaction tx) throws TransactionException {
        WriteBuffer buffer = tx.writeBuffer();
        if (singleRegionCommitter == null || buffer.sentAny() || buffer.isEmpty() || tx.currentCheckpoint() != 0) {
            return false;
        }
        // Kept writes of a transaction not begun (lazy begin) are at Timestamps.NONE: it commits write-only.
        Map<TableName, List<Put>> kept = buffer.contents(tx.isBegun() ? tx.startTimestamp() : Timestamps.NONE);
        if (kept.size() != 1) {
            return false;
        }
        Map.Entry<TableName, List<Put>> only = kept.entrySet().iterator().next();
        List<Put> rows = only.getValue();
        if (rows.size() > SingleRegionCommitRequest.MAX_ROWS) {
            return false;
        }
        ReadBeforeBegin read = tx.readBeforeBegin();
        if (read != null && !(read.table().equals(only.getKey()) && writes(rows, read.row()))) {
            return false; // the region checks only rows it locks, the written ones: it begins and checks the read
        }
        long sent = System.nanoTime();
        long version;
        try {
            if (!checkedTable(only.getKey()).fastPath) {
                return false;
            }
            String region = singleRegionCommitter.regionOf(only.getKey(), rows);
            if (region == null) {
                return false;
            }
            version = singleRegionCommitter.commit(tx, only.getKey(), region, rows, session.get());
        } catch (SnapshotTooOldException tooOld) {
            throw abort(tx, TransactionAbortedException.Reason.SNAPSHOT_TOO_OLD, tooOld);
        } catch (IOException unknown) {
            if (tx.singleRegionCommit() == null) {
                // Nothing was sent (the table could not be checked, or its region located): commit through the TSO.
                return false;
            }
            tx.markOutcomeUnknown();
            metrics.outcomeUnknown();
            throw new TransactionException("the outcome of " + tx.describe() + " is unknown: its single-region"
                    + " commit got no answer and could not be settled (" + unknown.getMessage()
                    + "). Settle it with TransactionManager.outcome(tx) once the region is reachable", unknown);
        }
        if (version == SingleRegionCommitter.DECLINED) {
            Objects.requireNonNull(tx.singleRegionCommit(), "a declined commit was attempted").declined();
            metrics.singleRegionDeclined();
            return false;
        }
        buffer.clear();
        tx.markCommitted(version);
        metrics.committed();
        metrics.singleRegionCommitted();
        commitPhaseListener.singleRegionCommitted(System.nanoTime() - sent);
        return true;
    }

    private static boolean writes(List<Put> rows, byte[] row) {
        for (Put p : rows) {
            if (Bytes.equals(p.getRow(), row)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Checks, once {@code tx} began, that the row it read before it began reads the same at its start timestamp
     * ({@link ReadBeforeBegin#holdsAt}); when it does not, no snapshot holds what the transaction read, and it is
     * rolled back.
     *
     * @throws TransactionAbortedException the row changed ({@link TransactionAbortedException.Reason#READ_CHANGED}),
     *     or the region refused the read
     * @throws TransactionException the row could not be read again; the transaction is rolled back
     */
    void checkReadBeforeBegin(Transaction tx, ReadBeforeBegin read) throws TransactionException {
        boolean holds;
        try (TTable table = new TTable(connection.getTable(read.table()))) {
            holds = read.holdsAt(table.getAtSnapshotOnly(tx, read.get()));
        } catch (IOException e) {
            IOException refused = TransactionAborts.abortIfRefused(tx, e);
            if (refused instanceof TransactionException) {
                throw (TransactionException) refused;
            }
            rollback(tx);
            throw new TransactionException("could not read row " + Bytes.toStringBinary(read.row()) + " again at the"
                    + " start timestamp of " + tx.describe() + ", which read it before it began; it was rolled back",
                    e);
        }
        if (!holds) {
            rollback(tx);
            metrics.aborted(TransactionAbortedException.Reason.READ_CHANGED);
            throw new TransactionAbortedException(tx.startTimestamp(), TransactionAbortedException.Reason.READ_CHANGED,
                    null);
        }
    }

    /** What this manager knows of {@code table}, checked once (a TTable of another manager may have written it). */
    private TransactionalTableCheck.CheckedTable checkedTable(TableName table) throws IOException {
        TransactionalTableCheck.CheckedTable known = tableCheck.known(table);
        if (known != null) {
            return known;
        }
        try (Table t = connection.getTable(table)) {
            return tableCheck.check(t);
        }
    }

    /**
     * Sends every write {@code tx} keeps. A failure is remembered, so that the transaction cannot commit afterwards
     * with part of its writes missing.
     */
    void sendBufferedWrites(Transaction tx) throws IOException {
        tx.beginIfNotBegun();
        for (Map.Entry<TableName, List<Put>> table : tx.writeBuffer().takeAll(tx.startTimestamp()).entrySet()) {
            sendWrites(tx, table.getKey(), table.getValue());
        }
    }

    /** Sends kept writes of {@code tx} to {@code table}, all in one batch; a failure is remembered as above. */
    void sendWrites(Transaction tx, TableName table, List<Put> rows) throws IOException {
        try (Table t = connection.getTable(table)) {
            sendWrites(tx, t, rows);
        }
    }

    /**
     * Sends writes of {@code tx} through {@code table}, all in one batch. A failure is remembered, kept writes or not:
     * HBase may have applied some of the rows, so the transaction must not commit afterwards.
     */
    static void sendWrites(Transaction tx, Table table, List<Put> rows) throws IOException {
        try {
            TableWrites.put(table, rows);
        } catch (IOException | RuntimeException e) {
            tx.inFlight().writeFailed(e);
            throw e;
        }
    }

    /**
     * How many bytes of writes a transaction keeps before sending them ({@code tidemark.client.write-buffer-bytes}).
     */
    long writeBufferBytes() {
        return writeBufferBytes;
    }

    /** A TSO timestamp obtained now: the start of a transaction begun and ended for it. */
    private long freshTimestamp() throws IOException {
        Transaction tx = beginAtTso(false);
        rollback(tx);
        return tx.startTimestamp();
    }

    /**
     * Waits until every operation issued through an {@link AsyncTTable} has finished, refusing new ones. A failed
     * write aborts the transaction: committing the rest would commit less than the application wrote.
     */
    private void awaitInFlightOperations(Transaction tx) throws TransactionException {
        try {
            tx.inFlight().end("commit").get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransactionException("interrupted while " + tx.describe() + " waited for its"
                    + " asynchronous operations before committing; it did not commit: roll it back", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the end of in-flight operations never fails", e);
        }
        join(commitProtocol.checkInFlightOutcome(tx, blockingIo));
    }

    /**
     * Rolls {@code tx} back: its tentative writes are removed and will never be visible. Asynchronous operations of
     * the transaction still running ({@link AsyncTTable}) finish first; the removal then runs on the thread that
     * finishes the last of them, so rollback never waits.
     */
    public void rollback(Transaction tx) {
        tx.checkFinishableBy(this, "roll back");
        tx.markRolledBack();
        tx.inFlight().end("rollback").thenRun(() -> {
            if (tx.isBegun()) {
                commitProtocol.removeTentativeCells(tx, blockingIo);
            } else {
                tx.writeBuffer().clear(); // begun lazily and never begun: nothing was sent (a send begins it)
            }
        });
    }

    /**
     * An asynchronous transactional view of {@code tableName}: operations return at once and run on
     * {@code executor}, so one transaction's reads and writes to different rows proceed concurrently (see
     * {@link AsyncTTable}). The table is checked here, once: a table that cannot hold transactional data is refused.
     *
     * @param connection an HBase connection of the caller's, which stays open when the AsyncTTable is closed
     * @param executor   where the operations run; the number of its threads bounds the fan-out. It stays the caller's
     *                   to shut down
     * @throws TableNotTransactionalException the table cannot be used transactionally (the message says why)
     */
    public AsyncTTable asyncTable(AsyncConnection connection, TableName tableName, ExecutorService executor)
            throws IOException {
        checkOpen();
        if (connection == null || tableName == null || executor == null) {
            throw new NullPointerException("connection, tableName and executor are all required");
        }
        Table table = new AsyncBackedTable(connection, tableName);
        tableCheck.check(table);
        return new AsyncTTable(new TTable(table), executor);
    }

    /**
     * Settles the outcome of the transaction that began at {@code startTimestamp}, for an application that lost track
     * of it: a commit that ended {@link TransactionState#OUTCOME_UNKNOWN}, or a client that crashed. The answer is
     * final.
     *
     * <p>The commit record decides when it says committed. Otherwise this invalidates the transaction (as a reader
     * would), so that it can never commit from now on: <b>settling a transaction that is still running aborts it</b>
     * (its commit will fail with {@link TransactionAbortedException.Reason#INVALIDATED}). A transaction that committed
     * and finished its post-commit before has no record any more; its shadow cells prove the commit, the invalidation
     * is undone, and the answer is {@link TransactionOutcome.Status#COMMITTED}. To find them, every table that may
     * hold transactional cells is scanned at exactly that version; HBase skips store files outside that time range.
     * {@link #outcome(Transaction)} reads the transaction's own written cells instead.
     *
     * @throws IOException the commit table or a table could not be read, or a table that may hold transactional cells
     *     is not marked transactional (the message names it): then nothing was changed
     */
    public TransactionOutcome outcome(long startTimestamp) throws IOException {
        checkOpen();
        if (startTimestamp <= 0) {
            throw new IllegalArgumentException("a start timestamp is positive, was " + startTimestamp);
        }
        return outcomeSettler.settle(startTimestamp);
    }

    /**
     * {@link #outcome(long)} for a transaction this manager began, reading its own written cells instead of scanning
     * tables. A committed or rolled-back transaction is answered from its state. A transaction that wrote nothing has
     * nothing to settle: it is {@link TransactionOutcome.Status#ABORTED} unless it committed. Settling a
     * {@link TransactionState#RUNNING} transaction aborts it (its commit will fail); one whose commit ended
     * {@link TransactionState#OUTCOME_UNKNOWN} takes the settled state, with the post-commit or the removal of its
     * tentative cells done here.
     */
    public TransactionOutcome outcome(Transaction tx) throws IOException {
        checkOpen();
        if (tx.manager() != this) {
            throw new TransactionStateException("cannot settle " + tx.describe() + " through this"
                    + " TransactionManager: another manager began it; use that one, or outcome(startTimestamp)");
        }
        long start = tx.startTimestamp();
        TransactionState state = tx.state();
        if (state == TransactionState.COMMITTED) {
            return TransactionOutcome.committed(start, tx.commitTimestamp());
        }
        if (state == TransactionState.ROLLED_BACK || tx.writeSet().isEmpty()) {
            return TransactionOutcome.aborted(start);
        }
        SingleRegionCommitAttempt inRegion = tx.singleRegionCommit();
        if (state == TransactionState.OUTCOME_UNKNOWN && inRegion != null && !inRegion.isDeclined()) {
            return settleSingleRegionCommit(tx, inRegion);
        }
        TransactionOutcome outcome = outcomeSettler.settle(start, tx.writeSet());
        if (state == TransactionState.OUTCOME_UNKNOWN) {
            if (outcome.isCommitted()) {
                commitProtocol.completeCommit(tx, new CommitRecord(start, outcome.commitTimestamp()), blockingIo);
            } else {
                tx.markRolledBack();
                commitProtocol.removeTentativeCells(tx, blockingIo);
            }
        }
        return outcome;
    }

    /**
     * Settles a single-region commit whose answer was lost: the region either finds it committed or makes sure it
     * never commits. An attempt whose operation record expired meanwhile is found by its start mark, which the
     * settler reads among the transaction's written cells.
     */
    private TransactionOutcome settleSingleRegionCommit(Transaction tx, SingleRegionCommitAttempt attempt)
            throws IOException {
        // an attempt exists only when single-region commit is on
        long version = Objects.requireNonNull(singleRegionCommitter).settle(attempt);
        TransactionOutcome outcome;
        if (attempt.isWriteOnly()) {
            // It never began and sent nothing else: committed at its version (also its start), or nothing written.
            outcome = version != SingleRegionCommitter.DECLINED ? TransactionOutcome.committed(version, version)
                    : TransactionOutcome.aborted(Timestamps.NONE);
        } else {
            long start = tx.startTimestamp();
            outcome = version != SingleRegionCommitter.DECLINED ? TransactionOutcome.committed(start, version)
                    : outcomeSettler.settle(start, tx.writeSet());
        }
        tx.writeBuffer().clear();
        if (outcome.isCommitted()) {
            tx.markCommitted(outcome.commitTimestamp());
        } else {
            tx.markRolledBack();
        }
        return outcome;
    }

    /** The conflict level this manager insists on, or null when it follows the cluster's (the default). */
    public ConflictLevel requiredConflictLevel() {
        return requiredConflictLevel;
    }

    public PostCommitMode postCommitMode() {
        return postCommitMode;
    }

    /**
     * This manager's metrics (names in {@link ClientMetrics}), also exported on JMX; e.g. for a reporter of the
     * application's own.
     */
    public MetricRegistry metricRegistry() {
        return metrics.registry();
    }

    /**
     * The name of this manager's metrics in JMX, {@code tidemark.client:manager=<name>,name=<metric>}: the configured
     * {@code tidemark.client.metrics.name}, with a suffix when another manager of this JVM had it first.
     */
    public String metricsName() {
        return Objects.requireNonNull(metrics.name(), "exported by the constructor");
    }

    /**
     * Waits for asynchronous post-commits, then releases the TSO client (when this manager created it) and the commit
     * writer, with the asynchronous HBase connection its group commit opened, if any. The HBase connection it was given
     * stays open.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (asyncPostCommits != null) {
            asyncPostCommits.close();
        }
        if (ownedCommitRecordWriter != null) {
            try {
                ownedCommitRecordWriter.close();
            } catch (Exception e) {
                LOG.warn("closing the commit writer failed", e);
            }
        }
        asyncCommitTable.close();
        if (ownsTso) {
            tso.close();
        }
        metrics.stopJmx();
    }

    TsoClient tso() {
        return tso;
    }

    CommitProtocol commitProtocol() {
        return commitProtocol;
    }

    /** The post-commits commits do not wait for; only with {@link PostCommitMode#ASYNC}. */
    AsyncPostCommits asyncPostCommits() {
        return Objects.requireNonNull(asyncPostCommits, "a post-commit is started only with the asynchronous setting");
    }

    HBaseAsyncCommitBatches asyncCommitTable() {
        return asyncCommitTable;
    }

    CommitRecordWriter commitRecordWriter() {
        return commitRecordWriter;
    }

    void checkOpenForUse() {
        checkOpen();
    }

    CommitTable commitTable() {
        return commitTable;
    }

    CommitTableSettings commitTableSettings() {
        return commitTableSettings;
    }

    TransactionalTableCheck tableCheck() {
        return tableCheck;
    }

    ClientMetrics metrics() {
        return metrics;
    }

    private TransactionAbortedException abort(Transaction tx, TransactionAbortedException.Reason reason,
            @Nullable Throwable cause) {
        return commitProtocol.abort(tx, reason, cause, blockingIo).join();
    }

    /**
     * Waits for a step of the {@link CommitProtocol}, which runs on this thread with {@link #blockingIo}, and throws
     * what it failed with as the blocking API does.
     */
    private static void join(CompletableFuture<Void> step) throws TransactionException {
        try {
            step.join();
        } catch (CompletionException e) {
            Throwable cause = CommitProtocol.unwrap(e);
            if (cause instanceof TransactionException) {
                throw (TransactionException) cause;
            }
            if (cause instanceof RuntimeException) {
                throw (RuntimeException) cause;
            }
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw new TransactionException(Objects.toString(cause.getMessage(), cause.toString()), cause);
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("this TransactionManager is closed; build a new one");
        }
    }

    /** The commit protocol's I/O done on the calling thread, handed back as completed futures. */
    private final class BlockingIo implements CommitProtocol.Io {

        @Override
        public CompletableFuture<Void> sendBufferedWrites(Transaction tx) {
            return run(() -> TransactionManager.this.sendBufferedWrites(tx));
        }

        @Override
        public CompletableFuture<CommitResult> tsoCommit(Transaction tx, long[] conflictIds, long[] tableIds) {
            try {
                return CompletableFuture.completedFuture(Futures.await(tso.commit(tx.startTimestamp(),
                        tx.commitToken(), conflictIds, tableIds), "the COMMIT request"));
            } catch (IOException e) {
                return CompletableFuture.failedFuture(e);
            }
        }

        @Override
        public CompletableFuture<Boolean> writeCommitRecord(CommitRecord record, CommitRecordDeadline deadline) {
            try {
                return CompletableFuture.completedFuture(commitRecordWriter.tryCommit(record, deadline));
            } catch (IOException | RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }

        @Override
        public CompletableFuture<CommitState> invalidate(long startTimestamp) {
            try {
                return CompletableFuture.completedFuture(commitTable.invalidate(startTimestamp));
            } catch (IOException | RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }

        @Override
        public CompletableFuture<Void> writeShadowCells(Transaction tx, long commitTimestamp) {
            return run(() -> tentativeCells.writeShadowCells(tx, commitTimestamp));
        }

        @Override
        public CompletableFuture<Void> releaseCommitRecord(CommitRecord record) {
            return run(() -> commitTable.release(record));
        }

        @Override
        public CompletableFuture<Void> removeTentativeCells(Transaction tx) {
            return run(() -> tentativeCells.remove(tx));
        }

        @Override
        public void startPostCommit(Supplier<CompletableFuture<Void>> postCommit) {
            // Its steps block, so the future is complete once the post-commit ran on the post-commit thread.
            asyncPostCommits().submit(() -> postCommit.get().join());
        }

        private CompletableFuture<Void> run(BlockingStep step) {
            try {
                step.run();
                return CompletableFuture.completedFuture(null);
            } catch (IOException | RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
    }

    @FunctionalInterface
    private interface BlockingStep {
        void run() throws IOException;
    }

    /** Configures a {@link TransactionManager}; everything not set comes from the configuration. */
    public static final class Builder {

        private final Connection connection;
        private @Nullable TidemarkConfig config;
        private @Nullable TsoClient tsoClient;
        private @Nullable ConflictLevel conflictLevel;
        private @Nullable PostCommitMode postCommitMode;
        private @Nullable CommitRecordWriter commitRecordWriter;
        private @Nullable ShadowCellWriter shadowCellWriter;
        private CommitPhaseListener commitPhaseListener = CommitPhaseListener.NONE;

        private Builder(Connection connection) {
            if (connection == null) {
                throw new IllegalArgumentException("connection must not be null");
            }
            this.connection = connection;
        }

        /** Defaults to {@link TidemarkConfig#load()}. */
        public Builder config(TidemarkConfig config) {
            this.config = config;
            return this;
        }

        /** Defaults to a {@link NettyTsoClient} built from the configuration and closed with the manager. */
        public Builder tsoClient(TsoClient tsoClient) {
            this.tsoClient = tsoClient;
            return this;
        }

        /**
         * The conflict level this manager insists on: it refuses to begin transactions when the cluster uses
         * another. Defaults to {@code tidemark.client.conflict-level}; when neither is set, the manager follows the
         * cluster's level (announced by the TSO).
         */
        public Builder conflictLevel(ConflictLevel conflictLevel) {
            this.conflictLevel = conflictLevel;
            return this;
        }

        /** Defaults to {@code tidemark.client.post-commit}. */
        public Builder postCommit(PostCommitMode postCommitMode) {
            this.postCommitMode = postCommitMode;
            return this;
        }

        /**
         * Fault-injection seam for tests: replaces the group-commit writer of commit records (low-latency mode), e.g.
         * to delay or fail the commit point. Defaults to a group-commit writer owned by the manager.
         */
        public Builder commitRecordWriter(CommitRecordWriter writer) {
            this.commitRecordWriter = writer;
            return this;
        }

        /**
         * Fault-injection seam for tests: replaces the writer of shadow cells, e.g. to stage a client that dies after
         * its commit point. Defaults to a plain multi-put.
         */
        public Builder shadowCellWriter(ShadowCellWriter writer) {
            this.shadowCellWriter = writer;
            return this;
        }

        /**
         * Told where the time of each commit went, e.g. by a benchmark; defaults to {@link CommitPhaseListener#NONE}.
         */
        public Builder commitPhaseListener(CommitPhaseListener listener) {
            if (listener == null) {
                throw new IllegalArgumentException("commit phase listener must not be null; use"
                        + " CommitPhaseListener.NONE");
            }
            this.commitPhaseListener = listener;
            return this;
        }

        public TransactionManager build() {
            return new TransactionManager(this, config != null ? config : TidemarkConfig.load());
        }
    }
}
