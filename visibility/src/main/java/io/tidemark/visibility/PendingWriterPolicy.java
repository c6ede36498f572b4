package io.tidemark.visibility;

import io.tidemark.protocol.CommitMode;

/**
 * What a {@link WriterResolver} does with a pending writer: one with neither a shadow cell nor a commit record. It
 * either invalidates it (marks it in the commit table as never able to commit, unless its commit record wins the
 * race) or reports it {@link WriterOutcome#PENDING}.
 */
public final class PendingWriterPolicy {

    /** The fast path: one RPC that must not wait; it reports the writer pending and never invalidates. */
    public static final PendingWriterPolicy REPORT = new PendingWriterPolicy(null, 0);

    /**
     * Compaction below the low watermark: no snapshot that can still commit waits for such a writer, so it is
     * invalidated, as a low-latency reader would.
     */
    public static final PendingWriterPolicy INVALIDATE = new PendingWriterPolicy(CommitMode.LOW_LATENCY, 0);

    /** The reader's commit mode; null for {@link #REPORT}. */
    private final CommitMode commitMode;
    private final long epoch;

    private PendingWriterPolicy(CommitMode commitMode, long epoch) {
        this.commitMode = commitMode;
        this.epoch = epoch;
    }

    /**
     * A generic reader's policy. In low-latency mode a writer may hold a commit timestamp below the reader's start
     * without having written its record yet, so the reader invalidates it rather than wait. In batched mode BEGIN
     * waited until every earlier commit was durable, so a writer without a record commits after the reader if at
     * all: it stays pending, and invisible; except a writer of an earlier TSO incarnation (start at or below the
     * reader's epoch), whose TSO may have died before writing its record: that one is invalidated.
     */
    public static PendingWriterPolicy forReader(ReaderContext reader) {
        return new PendingWriterPolicy(reader.commitMode(), reader.epoch());
    }

    /** Whether a pending writer that started at {@code writerStart} is invalidated. */
    public boolean invalidates(long writerStart) {
        if (commitMode == null) {
            return false;
        }
        return commitMode == CommitMode.LOW_LATENCY || writerStart <= epoch;
    }

    @Override
    public String toString() {
        return commitMode == null ? "report pending writers" : "invalidate pending writers (" + commitMode
                + (epoch > 0 ? ", or started at or below epoch " + epoch : "") + ")";
    }
}
