package io.tidemark.visibility;

import io.tidemark.protocol.CommitMode;
import io.tidemark.timestamp.Timestamps;

import java.util.Objects;

/**
 * Who reads a snapshot: its start timestamp, the commit mode of the TSO that handed it out, and that TSO
 * incarnation's epoch (every start timestamp of the incarnation is above it). The commit mode and the epoch decide
 * what the reader does with a writer nobody decided yet ({@link PendingWriterPolicy#forReader}). The reader's own
 * versions (its start and its checkpoint versions, {@link Timestamps#writerOf}) are visible up to
 * {@link #ownVersionsUpTo()}: all of them by default, only those of earlier checkpoints when a statement must not
 * read what it writes itself. A reader that {@linkplain #seesEveryOwnVersion() sees every own version} reads a
 * column's history as the transaction wrote it, checkpoint by checkpoint, above the snapshot's version.
 */
public final class ReaderContext {

    private final long startTimestamp;
    private final CommitMode commitMode;
    private final long epoch;
    private final long ownVersionsUpTo;
    private final boolean seesEveryOwnVersion;

    /** A reader that sees all its own writes. */
    public ReaderContext(long startTimestamp, CommitMode commitMode, long epoch) {
        this(startTimestamp, commitMode, epoch, startTimestamp + Timestamps.LOW_MASK);
    }

    /**
     * @param epoch the epoch of the TSO incarnation that handed out {@code startTimestamp}, or 0 when unknown (then
     *     no writer counts as one of an earlier incarnation)
     * @param ownVersionsUpTo the newest of its own versions the reader sees: from {@code startTimestamp - 1} (none)
     *     to {@code startTimestamp + LOW_MASK} (all)
     */
    public ReaderContext(long startTimestamp, CommitMode commitMode, long epoch, long ownVersionsUpTo) {
        this(startTimestamp, commitMode, epoch, ownVersionsUpTo, false);
    }

    /**
     * @param seesEveryOwnVersion whether a read returns every visible version the reader wrote itself, newest first,
     *     above the snapshot's version, rather than only the newest visible version of each column
     */
    public ReaderContext(long startTimestamp, CommitMode commitMode, long epoch, long ownVersionsUpTo,
                         boolean seesEveryOwnVersion) {
        Timestamps.checkSnapshot(startTimestamp, epoch, ownVersionsUpTo);
        this.startTimestamp = startTimestamp;
        this.ownVersionsUpTo = ownVersionsUpTo;
        this.commitMode = Objects.requireNonNull(commitMode, "commitMode");
        this.epoch = epoch;
        this.seesEveryOwnVersion = seesEveryOwnVersion;
    }

    public long startTimestamp() {
        return startTimestamp;
    }

    /** The newest of the reader's own versions it sees; {@code startTimestamp() - 1} when it sees none. */
    public long ownVersionsUpTo() {
        return ownVersionsUpTo;
    }

    /**
     * Whether a read returns, per column, each of the reader's own visible versions (one per checkpoint that wrote
     * it) above the version the snapshot sees, up to the request's maximum versions
     * ({@link SnapshotQuery#visibleCells(java.util.List, int)}); otherwise only the newest visible version.
     */
    public boolean seesEveryOwnVersion() {
        return seesEveryOwnVersion;
    }

    /** The newest version the reader can see at all: what its reads of stored versions must reach. */
    public long readsUpTo() {
        return Math.max(startTimestamp, ownVersionsUpTo);
    }

    /**
     * Whether the reader sees {@code version} as its own write: it wrote it (at its start or a checkpoint) no later
     * than {@link #ownVersionsUpTo()}.
     */
    public boolean seesAsOwnWrite(long version) {
        return Timestamps.writerOf(version) == startTimestamp && version <= ownVersionsUpTo;
    }

    /** Whether {@code version} was written by the reader itself, whether or not it sees it. */
    public boolean isOwnVersion(long version) {
        return Timestamps.writerOf(version) == startTimestamp;
    }

    public CommitMode commitMode() {
        return commitMode;
    }

    public long epoch() {
        return epoch;
    }

    @Override
    public String toString() {
        return "ReaderContext{start=" + startTimestamp + ", mode=" + commitMode + ", epoch=" + epoch + ", ownUpTo="
                + ownVersionsUpTo
                + (seesEveryOwnVersion ? ", everyOwnVersion" : "") + '}';
    }
}
