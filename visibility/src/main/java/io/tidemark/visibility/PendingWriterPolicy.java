package io.tidemark.visibility;

import io.tidemark.protocol.CommitMode;

/**
 * What a {@link WriterResolver} does with a pending writer: one with neither a shadow cell nor a commit record. It
 * either invalidates it (marks it in the commit table as never able to commit, unless its commit record wins the
 * race) or reports it {@link WriterOutcome#PENDING}. Which writers are invalidated is a bound on their start
 * timestamp: those that started at or below it.
 */
public final class PendingWriterPolicy {

    /**
     * Nothing is invalidated: for fast-path writes (and read-for-update), which abort on a pending writer rather than
     * decide it, and for a plain fast-path read's first look at the row, before it knows its version.
     */
    public static final PendingWriterPolicy REPORT = new PendingWriterPolicy(Long.MIN_VALUE, "report pending writers");

    /**
     * Compaction below the low watermark: no snapshot that can still commit waits for such a writer, so it is
     * invalidated, as a low-latency reader would.
     */
    public static final PendingWriterPolicy INVALIDATE = new PendingWriterPolicy(Long.MAX_VALUE,
            "invalidate pending writers");

    /** Writers that started at or below this are invalidated. */
    private final long invalidatesUpTo;
    private final String description;

    private PendingWriterPolicy(long invalidatesUpTo, String description) {
        this.invalidatesUpTo = invalidatesUpTo;
        this.description = description;
    }

    /**
     * A generic reader's policy. In low-latency mode a writer may hold a commit timestamp below the reader's start
     * without having written its record yet, so the reader invalidates it rather than wait. In batched mode BEGIN
     * waited until every earlier commit was durable, so a writer without a record commits after the reader if at
     * all: it stays pending, and invisible; except a writer of an earlier TSO incarnation (start at or below the
     * reader's epoch), whose TSO may have died before writing its record: that one is invalidated.
     */
    public static PendingWriterPolicy forReader(ReaderContext reader) {
        if (reader.commitMode() == CommitMode.LOW_LATENCY) {
            return new PendingWriterPolicy(Long.MAX_VALUE, "invalidate pending writers (" + CommitMode.LOW_LATENCY
                    + ")");
        }
        return new PendingWriterPolicy(reader.epoch(), reader.epoch() > 0
                ? "invalidate pending writers started at or below epoch " + reader.epoch() + " (" + reader.commitMode()
                        + ")"
                : "report pending writers (" + reader.commitMode() + ", no epoch known)");
    }

    /**
     * A fast-path read that reports the row at {@code version}: a pending writer that started at or below it could
     * still commit below it, so it is invalidated; a later one can only commit above it and is left alone.
     */
    public static PendingWriterPolicy upTo(long version) {
        return new PendingWriterPolicy(version, "invalidate pending writers started at or below " + version);
    }

    /** Whether a pending writer that started at {@code writerStart} is invalidated. */
    public boolean invalidates(long writerStart) {
        return writerStart <= invalidatesUpTo;
    }

    @Override
    public String toString() {
        return description;
    }
}
