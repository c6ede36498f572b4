package io.tidemark.protocol;

import io.tidemark.writeset.ConflictLevel;

/**
 * Server's answer to HELLO: the protocol version it speaks and the facts of its incarnation that every transaction
 * begun through it must follow: the cluster's commit mode and conflict level, and the incarnation's epoch.
 */
public final class HelloReply implements Message {

    private final short version;
    private final CommitMode commitMode;
    private final ConflictLevel conflictLevel;
    private final long epoch;

    public HelloReply(short version, CommitMode commitMode, ConflictLevel conflictLevel, long epoch) {
        this.version = version;
        this.commitMode = commitMode;
        this.conflictLevel = conflictLevel;
        this.epoch = epoch;
    }

    public short version() {
        return version;
    }

    public CommitMode commitMode() {
        return commitMode;
    }

    /** Whether write sets name cells or rows: every client of the cluster must send the same kind of ids. */
    public ConflictLevel conflictLevel() {
        return conflictLevel;
    }

    /**
     * Every timestamp handed out by this TSO incarnation is above the epoch, and every timestamp of an earlier
     * incarnation is at or below it.
     */
    public long epoch() {
        return epoch;
    }

    @Override
    public MessageType type() {
        return MessageType.HELLO_REPLY;
    }

    @Override
    public String toString() {
        return "HelloReply{version=" + version + ", mode=" + commitMode + ", conflictLevel=" + conflictLevel
                + ", epoch=" + epoch + '}';
    }
}
