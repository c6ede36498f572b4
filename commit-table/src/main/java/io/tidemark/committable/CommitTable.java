package io.tidemark.committable;

import java.io.IOException;
import java.util.List;

/**
 * The commit table: the commit point of every transaction (docs/architecture.md, "Commit table"). A transaction is
 * committed exactly when a commit record for it is durable here. Committing and invalidating are both "put if
 * absent" on the same record, so exactly one of them wins for any start timestamp.
 *
 * <p>Every conditional write decides by content: when the record is already there, the write looks at what is there.
 * A commit attempt that finds its own commit timestamp has won (it is its own earlier attempt, applied although its
 * reply was lost and the write was re-sent); an invalidation that finds the invalidation marker has won. So a write
 * that is applied and then retried never turns into its own loser.
 *
 * <p>Implementations are thread-safe. {@link HBaseCommitTable} is the production one; {@link InMemoryCommitTable}
 * holds the same semantics in memory for unit tests and embedded use.
 */
public interface CommitTable {

    /** What the commit table says about {@code startTimestamp}. */
    CommitState lookup(long startTimestamp) throws IOException;

    /**
     * Writes the commit record unless the transaction was invalidated first. True when the record holding
     * {@code record}'s commit timestamp stands (written now or by an earlier attempt of the same commit); false when an
     * invalidation (or a different commit timestamp) stands. No write is sent after {@code deadline}, and HBase's
     * timeouts of the write end there: an {@link IOException} (the deadline included) leaves the outcome unknown.
     */
    boolean tryCommit(CommitRecord record, CommitRecordDeadline deadline) throws IOException;

    /**
     * {@link #tryCommit(CommitRecord, CommitRecordDeadline)} for many records in one round trip: element i of the
     * result says whether record i stands. An {@link IOException} leaves every record's outcome unknown (some may be
     * durable).
     */
    boolean[] tryCommitAll(List<CommitRecord> records, CommitRecordDeadline deadline) throws IOException;

    /**
     * Where {@code startTimestamp}'s record is stored, as a number from 0: records of one partition written in one
     * round trip share one WAL sync, records of several partitions pay one each, one after the other (for HBase, the
     * partition is the salt bucket and so the region). Group commit batches records by partition. 0 for a table
     * without partitions.
     */
    default int partition(long startTimestamp) {
        return 0;
    }

    /** {@link #tryCommit(CommitRecord, CommitRecordDeadline)} without a deadline, for tools and tests. */
    default boolean tryCommit(CommitRecord record) throws IOException {
        return tryCommit(record, CommitRecordDeadline.NONE);
    }

    /** {@link #tryCommitAll(List, CommitRecordDeadline)} without a deadline, for tools and tests. */
    default boolean[] tryCommitAll(List<CommitRecord> records) throws IOException {
        return tryCommitAll(records, CommitRecordDeadline.NONE);
    }

    /**
     * Marks the transaction as never committed, unless it committed first. Returns the state that stands: either
     * {@link CommitState#invalidated()} (written now or found) or the writer's commit.
     */
    CommitState invalidate(long startTimestamp) throws IOException;

    /**
     * Removes an invalidation that turned out to be wrong (the writer had committed and already finished its
     * post-commit, shadow cells written and record deleted, when the reader invalidated), or one the sweeper proved
     * can go. Only an invalidation marker is removed, never a commit record. Where the commit-record guard checks seals
     * only holders of the decision keys (region servers, the sweeper) may remove one; elsewhere the marker stays, which
     * is harmless: the writer's shadow cells decide for readers, and the sweeper removes it later.
     */
    void undoInvalidation(long startTimestamp) throws IOException;

    /**
     * Removes the commit record of a committed transaction once its post-commit is done (every shadow cell durable),
     * with the record's release token, or, for a commit table that holds the decision keys, one it signs itself.
     */
    void release(CommitRecord record) throws IOException;

    /** {@link #release} for many transactions in one round trip. */
    void releaseAll(List<CommitRecord> records) throws IOException;

    /** The last low watermark the TSO persisted, or 0 when none was. */
    long readLowWatermark() throws IOException;

    /**
     * Raises the persisted low watermark to {@code lowWatermark}, atomically and only upwards: a value at or below
     * the one stored changes nothing. Every garbage-collection horizon assumes the persisted watermark never goes
     * down, and a TSO that paused between its lease check and this write may hold an older, lower value than its
     * successor already persisted (issue 32).
     */
    void raiseLowWatermark(long lowWatermark) throws IOException;
}
