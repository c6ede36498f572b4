package io.tidemark.visibility;

import io.tidemark.protocol.CommitMode;

import java.util.Objects;

/**
 * Who reads a snapshot: its start timestamp, the commit mode of the TSO that handed it out, and that TSO
 * incarnation's epoch (every start timestamp of the incarnation is above it). The commit mode and the epoch decide
 * what the reader does with a writer nobody decided yet ({@link PendingWriterPolicy#forReader}).
 */
public final class ReaderContext {

    private final long startTimestamp;
    private final CommitMode commitMode;
    private final long epoch;

    /**
     * @param epoch the epoch of the TSO incarnation that handed out {@code startTimestamp}, or 0 when unknown (then
     *     no writer counts as one of an earlier incarnation)
     */
    public ReaderContext(long startTimestamp, CommitMode commitMode, long epoch) {
        if (startTimestamp <= 0) {
            throw new IllegalArgumentException("start timestamp must be positive, was " + startTimestamp);
        }
        if (epoch < 0 || epoch >= startTimestamp) {
            throw new IllegalArgumentException("epoch must be from 0 to below the start timestamp " + startTimestamp
                    + ", was " + epoch);
        }
        this.startTimestamp = startTimestamp;
        this.commitMode = Objects.requireNonNull(commitMode, "commitMode");
        this.epoch = epoch;
    }

    public long startTimestamp() {
        return startTimestamp;
    }

    public CommitMode commitMode() {
        return commitMode;
    }

    public long epoch() {
        return epoch;
    }

    @Override
    public String toString() {
        return "ReaderContext{start=" + startTimestamp + ", mode=" + commitMode + ", epoch=" + epoch + '}';
    }
}
