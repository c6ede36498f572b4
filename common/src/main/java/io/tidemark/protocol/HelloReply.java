package io.tidemark.protocol;

import io.tidemark.writeset.ConflictLevel;

/**
 * Server's answer to HELLO: the protocol version it speaks, the facts of its incarnation that every transaction begun
 * through it must follow (the cluster's commit mode and conflict level, the incarnation's epoch) and the limits a
 * client must respect (the largest write set a COMMIT may carry, and how long a connection may stay idle).
 */
public final class HelloReply implements Message {

    private final short version;
    private final CommitMode commitMode;
    private final ConflictLevel conflictLevel;
    private final long epoch;
    private final int maxWriteSet;
    private final int idleTimeoutMs;

    public HelloReply(short version, CommitMode commitMode, ConflictLevel conflictLevel, long epoch, int maxWriteSet,
                      int idleTimeoutMs) {
        this.version = version;
        this.commitMode = commitMode;
        this.conflictLevel = conflictLevel;
        this.epoch = epoch;
        this.maxWriteSet = maxWriteSet;
        this.idleTimeoutMs = idleTimeoutMs;
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

    /** Most write-set ids (and most table ids) one COMMIT may carry; the TSO refuses a larger one. */
    public int maxWriteSet() {
        return maxWriteSet;
    }

    /**
     * The TSO closes a connection that sent no request and waited for no reply this long (ms); a client closes its
     * idle connections well before, so that the TSO never closes one just as a request is on its way.
     */
    public int idleTimeoutMs() {
        return idleTimeoutMs;
    }

    @Override
    public MessageType type() {
        return MessageType.HELLO_REPLY;
    }

    @Override
    public String toString() {
        return "HelloReply{version=" + version + ", mode=" + commitMode + ", conflictLevel=" + conflictLevel
                + ", epoch=" + epoch + ", maxWriteSet=" + maxWriteSet + ", idleTimeoutMs=" + idleTimeoutMs + '}';
    }
}
