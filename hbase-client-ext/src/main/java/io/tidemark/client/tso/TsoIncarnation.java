package io.tidemark.client.tso;

import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.HelloReply;
import io.tidemark.writeset.ConflictLevel;

/**
 * What one TSO incarnation announced in its HELLO reply: the cluster's commit mode and conflict level, and the
 * incarnation's epoch. A transaction follows the incarnation that handed out its start timestamp, never whichever
 * incarnation a connection happens to reach later (after a failover it may be another one, even in another mode).
 */
public final class TsoIncarnation {

    private final CommitMode commitMode;
    private final ConflictLevel conflictLevel;
    private final long epoch;
    private final int maxWriteSet;

    /** @param maxWriteSet most write-set ids a COMMIT to this incarnation may carry */
    public TsoIncarnation(CommitMode commitMode, ConflictLevel conflictLevel, long epoch, int maxWriteSet) {
        this.commitMode = commitMode;
        this.conflictLevel = conflictLevel;
        this.epoch = epoch;
        this.maxWriteSet = maxWriteSet;
    }

    static TsoIncarnation of(HelloReply hello) {
        return new TsoIncarnation(hello.commitMode(), hello.conflictLevel(), hello.epoch(), hello.maxWriteSet());
    }

    public CommitMode commitMode() {
        return commitMode;
    }

    public ConflictLevel conflictLevel() {
        return conflictLevel;
    }

    /** Every timestamp of earlier TSO incarnations is at or below it; this incarnation's are above it. */
    public long epoch() {
        return epoch;
    }

    /** Most write-set ids (and table ids) a COMMIT to this incarnation may carry; it refuses larger ones. */
    public int maxWriteSet() {
        return maxWriteSet;
    }

    @Override
    public String toString() {
        return "TSO incarnation{epoch=" + epoch + ", mode=" + commitMode.configName() + ", conflict level="
                + conflictLevel.configName() + '}';
    }
}
