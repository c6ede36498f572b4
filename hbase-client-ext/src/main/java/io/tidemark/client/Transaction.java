package io.tidemark.client;

import io.tidemark.client.tso.BeginResult;
import io.tidemark.client.tso.TsoIncarnation;
import io.tidemark.protocol.CommitMode;
import io.tidemark.timestamp.Timestamps;
import io.tidemark.visibility.DecidedWriters;
import io.tidemark.visibility.ReaderContext;
import io.tidemark.writeset.ConflictLevel;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Mutation;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * One snapshot-isolation transaction, begun by {@link TransactionManager#begin()}. It reads the snapshot of its start
 * timestamp (plus its own writes) and commits or rolls back through the manager that began it. Like an HBase
 * {@code Table}, a transaction is meant to be used by one thread at a time; to issue its operations concurrently,
 * use an {@link AsyncTTable}.
 *
 * <p>Its writes can be split into checkpoints ({@link #checkpoint()}): each checkpoint writes at its own version
 * ({@link Timestamps#checkpointVersion}), and the {@link VisibilityLevel} says whether reads see the current
 * checkpoint's writes. All checkpoints commit or roll back together.
 *
 * <p>With {@code tidemark.client.lazy-begin}, {@link TransactionManager#begin()} returns a transaction that has not
 * begun at the TSO yet: it begins (one BEGIN round trip) when it first needs its start timestamp, at its first read,
 * delete, checkpoint or early send of its writes, a call of {@link #startTimestamp()}, or a commit through the TSO. A
 * transaction that only put, into rows of one region, may commit there without ever beginning
 * (docs/architecture.md, "Write-only single-region commit"); its first read, when it is a Get of a table with the fast
 * path, goes to the row's region without a snapshot, and a transaction that then writes that row (and rows of its
 * region only) commits there too (docs/architecture.md, "Read-modify-write without a BEGIN").
 */
public final class Transaction {

    private final TransactionManager manager;
    /** Begun by {@link TransactionManager#beginReadOnly}: every write is refused. */
    private final boolean readOnly;
    /** What the TSO's BEGIN gave it; null until it began (lazy begin). */
    private volatile @Nullable Begun begun;
    private final WriteSet writeSet = new WriteSet();
    /** The writers this transaction's reads decided; saves commit-table reads and keeps every read consistent. */
    private final DecidedWriters decidedWriters = new DecidedWriters();
    /** Operations issued through an {@link AsyncTTable} and not finished; commit waits for them. */
    private final InFlightOperations inFlight;
    /** The writes not sent to HBase yet: sent at commit, or before a read that could see them. */
    private final WriteBuffer writeBuffer;
    /** The read made before the transaction began (lazy begin), until it begins; null when none was made. */
    private volatile @Nullable ReadBeforeBegin readBeforeBegin;
    /** The last single-region commit attempt, for settling its outcome; null when none was sent. */
    private volatile @Nullable SingleRegionCommitAttempt singleRegionCommit;
    /** The checkpoint the transaction writes in now: 0 until the first {@link #checkpoint()}. */
    private volatile int checkpoint;
    private volatile VisibilityLevel visibilityLevel = VisibilityLevel.SNAPSHOT;
    private volatile TransactionState state = TransactionState.RUNNING;
    private volatile Durability durability = Durability.USE_DEFAULT;
    private volatile long commitTimestamp;

    /**
     * @param commitToken the token the TSO handed out with {@code startTimestamp}, for the COMMIT
     * @param incarnation the TSO incarnation that handed out {@code startTimestamp}: its mode, level, epoch and limits
     * @param readOnly whether every write is refused
     * @param snapshotObtainedNanos when the request that produced {@code startTimestamp} was sent
     */
    Transaction(TransactionManager manager, long startTimestamp, long commitToken, TsoIncarnation incarnation,
                boolean readOnly, long snapshotObtainedNanos) {
        this(manager, readOnly);
        this.begun = new Begun(startTimestamp, commitToken, incarnation, snapshotObtainedNanos);
    }

    /** A transaction that begins at the TSO when it first needs to (lazy begin); never read-only. */
    Transaction(TransactionManager manager) {
        this(manager, false);
    }

    private Transaction(TransactionManager manager, boolean readOnly) {
        this.manager = manager;
        this.readOnly = readOnly;
        this.inFlight = new InFlightOperations(this::describe);
        this.writeBuffer = new WriteBuffer(readOnly ? 0 : manager.writeBufferBytes());
    }

    /**
     * The TSO timestamp this transaction's snapshot is taken at; its writes are versioned at it until the first
     * {@link #checkpoint()}, and just above it afterwards. A transaction that has not begun yet (lazy begin) begins
     * now; one that committed in its region without ever beginning has its commit version as its start (it read
     * nothing: it serialises there), and one that ended otherwise without beginning has {@link Timestamps#NONE}.
     *
     * @throws UncheckedIOException the transaction had not begun and no TSO answered its BEGIN (a
     *     {@link TransactionException})
     */
    public long startTimestamp() {
        Begun b = begun;
        if (b != null) {
            return b.reader.startTimestamp();
        }
        TransactionState s = state;
        if (s == TransactionState.COMMITTED) {
            return commitTimestamp;
        }
        if (s != TransactionState.RUNNING) {
            return Timestamps.NONE;
        }
        return begun().reader.startTimestamp();
    }

    /** Whether the transaction has its start timestamp from the TSO (always, unless begun lazily). */
    boolean isBegun() {
        return begun != null;
    }

    /**
     * Begins the transaction at the TSO if it has not begun yet (lazy begin) and is still running. Its writes kept so
     * far, at {@link Timestamps#NONE}, move to the start timestamp.
     *
     * @throws TransactionException no TSO answered the BEGIN, or the cluster's conflict level is not the one the
     *     manager insists on
     */
    void beginIfNotBegun() throws TransactionException {
        if (begun != null) {
            return;
        }
        ReadBeforeBegin read;
        synchronized (this) {
            if (begun != null || state != TransactionState.RUNNING) {
                return;
            }
            long sent = System.nanoTime();
            BeginResult result = manager.beginLater();
            writeSet.rebase(result.startTimestamp());
            writeBuffer.rebase(result.startTimestamp());
            begun = new Begun(result.startTimestamp(), result.commitToken(), result.incarnation(), sent);
            read = readBeforeBegin;
            readBeforeBegin = null;
        }
        if (read != null) {
            manager.checkReadBeforeBegin(this, read);
        }
    }

    /**
     * Whether a read may go to its region before the transaction begins ({@link ReadBeforeBegin}): it has not begun,
     * is running, and has read and written nothing yet.
     */
    boolean mayReadBeforeBegin() {
        return begun == null && readBeforeBegin == null && state == TransactionState.RUNNING && !readOnly
                && writeSet.isEmpty() && writeBuffer.isEmpty() && checkpoint == 0;
    }

    /**
     * Reads {@code get} from {@code table} before the transaction begins ({@link ReadBeforeBegin#read}) when it may
     * ({@link #mayReadBeforeBegin}). Holds the transaction meanwhile, as {@link #beginIfNotBegun} does: a concurrent
     * operation (an {@link AsyncTTable}'s) that begins it then finds the read and checks it, and one that would also
     * read before the transaction began reads at its snapshot instead.
     *
     * @return the read, or null when the transaction may not read this way or the row has an undecided writer
     */
    synchronized @Nullable ReadBeforeBegin readBeforeBegin(Table table, Get get) throws IOException {
        if (!mayReadBeforeBegin()) {
            return null;
        }
        ReadBeforeBegin read = ReadBeforeBegin.read(table, get);
        readBeforeBegin = read;
        return read;
    }

    /** The read made before the transaction began, while it has not begun; null otherwise. */
    @Nullable ReadBeforeBegin readBeforeBegin() {
        return begun == null ? readBeforeBegin : null;
    }

    /** What the BEGIN gave this transaction, begun now if it had not begun; for the accessors that cannot throw. */
    private Begun begun() {
        Begun b = begun;
        if (b != null) {
            return b;
        }
        try {
            beginIfNotBegun();
        } catch (TransactionException e) {
            throw new UncheckedIOException(e);
        }
        b = begun;
        if (b == null) {
            checkRunning("use the snapshot");
            throw new IllegalStateException("a running transaction begins above");
        }
        return b;
    }

    /**
     * The commit timestamp, once {@link TransactionState#COMMITTED}. A read-only transaction commits at its start
     * timestamp, without asking the TSO.
     */
    public long commitTimestamp() {
        if (state != TransactionState.COMMITTED) {
            throw new TransactionStateException(describe() + " has no commit timestamp: it is "
                    + state + "; only a committed transaction has one");
        }
        return commitTimestamp;
    }

    public TransactionState state() {
        return state;
    }

    /**
     * Starts a new write epoch: writes from now on go to the next checkpoint's version, and a reader at
     * {@link VisibilityLevel#SNAPSHOT_EXCLUDE_CURRENT} now sees every write made before this call. At most
     * {@link Timestamps#MAX_CHECKPOINTS} checkpoints per transaction.
     *
     * @throws TransactionStateException the transaction is not running or was begun read-only
     * @throws TooManyCheckpointsException all checkpoints are used
     * @throws UncheckedIOException the transaction had not begun (lazy begin) and no TSO answered its BEGIN
     */
    @SuppressWarnings("NonAtomicVolatileUpdate") // one thread at a time uses a transaction (class comment)
    public void checkpoint() {
        checkWritable("take a checkpoint");
        begun();
        if (checkpoint == Timestamps.MAX_CHECKPOINTS) {
            throw new TooManyCheckpointsException(startTimestamp());
        }
        checkpoint++;
    }

    /** The checkpoint the transaction writes in now: 0 before the first {@link #checkpoint()}. */
    public int currentCheckpoint() {
        return checkpoint;
    }

    /** Which of its own writes the transaction's reads see from now on; {@link VisibilityLevel#SNAPSHOT} at first. */
    public void setVisibilityLevel(VisibilityLevel level) {
        checkRunning("set the visibility level");
        this.visibilityLevel = Objects.requireNonNull(level, "level");
    }

    public VisibilityLevel visibilityLevel() {
        return visibilityLevel;
    }

    /** Whether the transaction was begun read-only ({@link TransactionManager#beginReadOnly}): it refuses writes. */
    public boolean isReadOnly() {
        return readOnly;
    }

    /**
     * How old the snapshot was when the transaction began: the time since the request that produced its start
     * timestamp was sent. About one TSO round trip for {@link TransactionManager#begin()}; up to the staleness bound
     * for {@link TransactionManager#beginReadOnly(Staleness)}. Transactions that committed during this time may be
     * missing from the snapshot.
     */
    public Duration snapshotAgeAtBegin() {
        Begun b = begun();
        return Duration.ofNanos(b.begunNanos - b.snapshotObtainedNanos);
    }

    /**
     * Sets the WAL durability of this transaction's writes from now on: the tentative cells of mutations that keep
     * HBase's {@link Durability#USE_DEFAULT} (a mutation's own setting wins), and, at commit or rollback, its shadow
     * cells, its commit record (low-latency mode; batched records follow the commit table) and the removal of its
     * cells. {@link Durability#USE_DEFAULT}, the initial value, leaves each write to its table's setting. See
     * docs/api.md, "Durability settings", for what the weaker settings risk.
     */
    public void setDurability(Durability durability) {
        Objects.requireNonNull(durability, "durability");
        checkRunning("set the durability");
        this.durability = durability;
    }

    /** The durability set by {@link #setDurability}, {@link Durability#USE_DEFAULT} unless set. */
    public Durability durability() {
        return durability;
    }

    /** The durability a tentative write for {@code mutation} carries: the mutation's own, else the transaction's. */
    Durability durabilityFor(Mutation mutation) {
        Durability own = mutation.getDurability();
        return own == Durability.USE_DEFAULT ? durability : own;
    }

    @Override
    public String toString() {
        Begun b = begun;
        return "Transaction{" + (b != null ? "start=" + b.reader.startTimestamp() : "not begun") + ", state=" + state
                + (state == TransactionState.COMMITTED ? ", commit=" + commitTimestamp : "") + '}';
    }

    /**
     * "transaction" and its start timestamp, for messages, without beginning it: a transaction that has not begun is
     * "a transaction not begun yet" (one that committed write-only is named by its commit version, its start).
     */
    String describe() {
        Begun b = begun;
        if (b != null) {
            return "transaction " + b.reader.startTimestamp();
        }
        return state == TransactionState.COMMITTED ? "transaction " + commitTimestamp : "a transaction not begun yet";
    }

    TransactionManager manager() {
        return manager;
    }

    /** The commit mode of the TSO incarnation that handed out the start timestamp. */
    CommitMode commitMode() {
        return begun().reader.commitMode();
    }

    /**
     * This transaction as a reader of snapshots now: start timestamp, the commit mode and epoch of the TSO incarnation
     * that began it (a writer at or below that epoch belongs to an earlier incarnation), and the newest of its own
     * versions its reads see (the current checkpoint's, or the previous one's at
     * {@link VisibilityLevel#SNAPSHOT_EXCLUDE_CURRENT}), and whether they see each of them
     * ({@link VisibilityLevel#SNAPSHOT_ALL}).
     */
    ReaderContext readerContext() {
        ReaderContext reader = begun().reader;
        int current = checkpoint;
        VisibilityLevel level = visibilityLevel;
        long ownVersionsUpTo;
        if (level == VisibilityLevel.SNAPSHOT_EXCLUDE_CURRENT) {
            ownVersionsUpTo = current == 0 ? startTimestamp() - 1
                    : Timestamps.checkpointVersion(startTimestamp(), current - 1);
        } else {
            ownVersionsUpTo = Timestamps.checkpointVersion(startTimestamp(), current);
        }
        return new ReaderContext(startTimestamp(), reader.commitMode(), reader.epoch(), ownVersionsUpTo,
                level == VisibilityLevel.SNAPSHOT_ALL);
    }

    /** This transaction as a reader of its snapshot alone, seeing none of its own writes. */
    ReaderContext readerContextWithoutOwnWrites() {
        ReaderContext reader = begun().reader;
        return new ReaderContext(reader.startTimestamp(), reader.commitMode(), reader.epoch(),
                reader.startTimestamp() - 1, false);
    }

    /**
     * This transaction as the reads that decide what one of its writes does (an increment's current value, a
     * checkAndMutate's condition, the columns a row or family delete covers): they see every own write made so far,
     * whatever the visibility level. At {@link VisibilityLevel#SNAPSHOT_EXCLUDE_CURRENT} a statement does not read
     * what it writes itself, but a write that builds on a value it cannot see overwrites that value: two increments
     * of one column would both start from the snapshot, and a row delete would miss the row's newest own columns
     * (issue 32).
     */
    ReaderContext readerContextForWrites() {
        ReaderContext reader = begun().reader;
        return new ReaderContext(startTimestamp(), reader.commitMode(), reader.epoch(), writeVersion(), false);
    }

    /**
     * The version this transaction's writes get now: the current checkpoint's; {@link Timestamps#NONE} before it began
     * (lazy begin: {@link #checkpoint()} begins it, so that is checkpoint 0), moved to the start timestamp when it
     * does.
     */
    long writeVersion() {
        Begun b = begun;
        return b == null ? Timestamps.NONE : Timestamps.checkpointVersion(b.reader.startTimestamp(), checkpoint);
    }

    DecidedWriters decidedWriters() {
        return decidedWriters;
    }

    /** Whether this transaction's write set names cells or rows: the level of the incarnation that began it. */
    ConflictLevel conflictLevel() {
        return begun().incarnation.conflictLevel();
    }

    InFlightOperations inFlight() {
        return inFlight;
    }

    WriteSet writeSet() {
        return writeSet;
    }

    WriteBuffer writeBuffer() {
        return writeBuffer;
    }

    /**
     * Sends the kept writes of {@code table} that a read of rows {@code from} to {@code to} (both included; null:
     * unbounded) could see, so that the read finds them in HBase. A failure is remembered: the transaction cannot
     * commit what it was asked to write, and its commit aborts.
     */
    void sendWritesBeforeRead(TableName table, byte @Nullable [] from, byte @Nullable [] to) throws IOException {
        if (!writeBuffer.isEnabled()) {
            return;
        }
        beginIfNotBegun();
        List<Put> rows = writeBuffer.take(table, from, to, startTimestamp());
        if (!rows.isEmpty()) {
            manager.sendWrites(this, table, rows);
        }
    }

    /** Sends the kept writes of {@code table} a read of {@code gets} could see. */
    void sendWritesBeforeRead(TableName table, List<Get> gets) throws IOException {
        if (!writeBuffer.isEnabled() || writeBuffer.isEmpty()) {
            return;
        }
        for (Get g : gets) {
            sendWritesBeforeRead(table, g.getRow(), g.getRow());
        }
    }

    /** Sends the kept writes of {@code table} that {@code scan} could see. */
    void sendWritesBeforeRead(TableName table, Scan scan) throws IOException {
        if (!writeBuffer.isEnabled() || writeBuffer.isEmpty()) {
            return;
        }
        beginIfNotBegun();
        List<Put> rows = writeBuffer.takeScanned(table, scan, startTimestamp());
        if (!rows.isEmpty()) {
            manager.sendWrites(this, table, rows);
        }
    }

    @Nullable SingleRegionCommitAttempt singleRegionCommit() {
        return singleRegionCommit;
    }

    void singleRegionCommitSent(SingleRegionCommitAttempt attempt) {
        this.singleRegionCommit = attempt;
    }

    /** What the COMMIT must carry to prove this transaction's client began it. */
    long commitToken() {
        return begun().commitToken;
    }

    /** Most write-set ids the TSO incarnation that began this transaction accepts in its COMMIT. */
    int maxWriteSet() {
        return begun().incarnation.maxWriteSet();
    }

    /** Refuses any use (read, write) of a transaction that is no longer running. */
    void checkRunning(String action) {
        TransactionState s = state;
        if (s != TransactionState.RUNNING) {
            throw new TransactionStateException("cannot " + action + " in " + describe() + ": it is " + s
                    + "; begin a new transaction");
        }
    }

    /** Refuses a write: the transaction is not running, or was begun read-only. */
    void checkWritable(String action) {
        checkRunning(action);
        if (readOnly) {
            throw new TransactionStateException("cannot " + action + " in " + describe()
                    + ": it was begun read-only (beginReadOnly); begin it with begin() to write");
        }
    }

    /** The TSO incarnation that handed out the start timestamp. */
    TsoIncarnation incarnation() {
        return begun().incarnation;
    }

    /** When the request that produced the start timestamp was sent ({@link System#nanoTime()}). */
    long snapshotObtainedNanos() {
        return begun().snapshotObtainedNanos;
    }

    /** Refuses to finish a transaction that is not running, or through a manager that did not begin it. */
    void checkFinishableBy(TransactionManager finisher, String action) {
        if (finisher != manager) {
            throw new TransactionStateException("cannot " + action + " " + describe()
                    + " through this TransactionManager: another manager began it; use that one");
        }
        checkRunning(action);
    }

    void markCommitted(long commitTs) {
        this.commitTimestamp = commitTs;
        this.state = TransactionState.COMMITTED;
        manager.advanceSession(commitTs);
    }

    void markRolledBack() {
        this.state = TransactionState.ROLLED_BACK;
    }

    void markOutcomeUnknown() {
        this.state = TransactionState.OUTCOME_UNKNOWN;
    }

    /** What a BEGIN gave the transaction. */
    private static final class Begun {
        final ReaderContext reader;
        final TsoIncarnation incarnation;
        final long commitToken;
        /** When the request that produced the start timestamp was sent ({@link System#nanoTime()}). */
        final long snapshotObtainedNanos;
        final long begunNanos = System.nanoTime();

        Begun(long startTimestamp, long commitToken, TsoIncarnation incarnation, long snapshotObtainedNanos) {
            this.reader = new ReaderContext(startTimestamp, incarnation.commitMode(), incarnation.epoch());
            this.incarnation = incarnation;
            this.commitToken = commitToken;
            this.snapshotObtainedNanos = snapshotObtainedNanos;
        }
    }
}
