package io.tidemark.client;

import io.tidemark.client.tso.TsoIncarnation;
import io.tidemark.protocol.CommitMode;
import io.tidemark.writeset.ConflictLevel;

import java.util.HashMap;
import java.util.Map;

/**
 * One snapshot-isolation transaction, begun by {@link TransactionManager#begin()}. It reads the snapshot of its start
 * timestamp (plus its own writes) and commits or rolls back through the manager that began it. Like an HBase
 * {@code Table}, a transaction is meant to be used by one thread at a time.
 */
public final class Transaction {

    /** Commit timestamp cached for writers whose commit this snapshot can never see. */
    static final long NOT_VISIBLE = Long.MAX_VALUE;

    private final TransactionManager manager;
    private final long startTimestamp;
    private final TsoIncarnation incarnation;
    private final WriteSet writeSet = new WriteSet();
    /** Start timestamp of a writer -> its commit timestamp, or {@link #NOT_VISIBLE}; saves commit-table reads. */
    private final Map<Long, Long> resolvedWriters = new HashMap<>();
    private volatile TransactionState state = TransactionState.RUNNING;
    private volatile long commitTimestamp;

    Transaction(TransactionManager manager, long startTimestamp, TsoIncarnation incarnation) {
        this.manager = manager;
        this.startTimestamp = startTimestamp;
        this.incarnation = incarnation;
    }

    /** The TSO timestamp this transaction's snapshot (and the version of every cell it writes) is taken at. */
    public long startTimestamp() {
        return startTimestamp;
    }

    /**
     * The commit timestamp, once {@link TransactionState#COMMITTED}. A read-only transaction commits at its start
     * timestamp, without asking the TSO.
     */
    public long commitTimestamp() {
        if (state != TransactionState.COMMITTED) {
            throw new TransactionStateException("transaction " + startTimestamp + " has no commit timestamp: it is "
                    + state + "; only a committed transaction has one");
        }
        return commitTimestamp;
    }

    public TransactionState state() {
        return state;
    }

    @Override
    public String toString() {
        return "Transaction{start=" + startTimestamp + ", state=" + state
                + (state == TransactionState.COMMITTED ? ", commit=" + commitTimestamp : "") + '}';
    }

    TransactionManager manager() {
        return manager;
    }

    /** The commit mode of the TSO incarnation that handed out the start timestamp. */
    CommitMode commitMode() {
        return incarnation.commitMode();
    }

    /**
     * The epoch of the TSO incarnation that handed out the start timestamp: a writer that started at or below it
     * belongs to an earlier incarnation, and readers may invalidate it in either commit mode.
     */
    long epoch() {
        return incarnation.epoch();
    }

    /** Whether this transaction's write set names cells or rows: the level of the incarnation that began it. */
    ConflictLevel conflictLevel() {
        return incarnation.conflictLevel();
    }

    WriteSet writeSet() {
        return writeSet;
    }

    /** Refuses any use (read, write) of a transaction that is no longer running. */
    void checkRunning(String action) {
        TransactionState s = state;
        if (s != TransactionState.RUNNING) {
            throw new TransactionStateException("cannot " + action + " in transaction " + startTimestamp
                    + ": it is " + s + "; begin a new transaction");
        }
    }

    /** Refuses to finish a transaction that is not running, or through a manager that did not begin it. */
    void checkFinishableBy(TransactionManager finisher, String action) {
        if (finisher != manager) {
            throw new TransactionStateException("cannot " + action + " transaction " + startTimestamp
                    + " through this TransactionManager: another manager began it; use that one");
        }
        checkRunning(action);
    }

    synchronized Long resolvedWriter(long writerStart) {
        return resolvedWriters.get(writerStart);
    }

    synchronized void rememberWriter(long writerStart, long commitTimestampOrNotVisible) {
        resolvedWriters.put(writerStart, commitTimestampOrNotVisible);
    }

    void markCommitted(long commitTs) {
        this.commitTimestamp = commitTs;
        this.state = TransactionState.COMMITTED;
    }

    void markRolledBack() {
        this.state = TransactionState.ROLLED_BACK;
    }

    void markOutcomeUnknown() {
        this.state = TransactionState.OUTCOME_UNKNOWN;
    }
}
