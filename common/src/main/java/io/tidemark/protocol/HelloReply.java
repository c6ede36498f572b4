package io.tidemark.protocol;

/** Server's answer to HELLO: the protocol version it speaks, its commit mode and its current epoch. */
public final class HelloReply implements Message {

    private final short version;
    private final CommitMode commitMode;
    private final long epoch;

    public HelloReply(short version, CommitMode commitMode, long epoch) {
        this.version = version;
        this.commitMode = commitMode;
        this.epoch = epoch;
    }

    public short version() {
        return version;
    }

    public CommitMode commitMode() {
        return commitMode;
    }

    /** Every start timestamp handed out by this TSO incarnation is above the epoch. */
    public long epoch() {
        return epoch;
    }

    @Override
    public MessageType type() {
        return MessageType.HELLO_REPLY;
    }

    @Override
    public String toString() {
        return "HelloReply{version=" + version + ", mode=" + commitMode + ", epoch=" + epoch + '}';
    }
}
