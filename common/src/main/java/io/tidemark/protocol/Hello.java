package io.tidemark.protocol;

/** First message on a connection, client to server: magic number and the client's protocol version. */
public final class Hello implements Message {

    private final int magic;
    private final short version;

    public Hello(int magic, short version) {
        this.magic = magic;
        this.version = version;
    }

    /** The HELLO this code sends. */
    public static Hello current() {
        return new Hello(Protocol.MAGIC, Protocol.VERSION);
    }

    public int magic() {
        return magic;
    }

    public short version() {
        return version;
    }

    @Override
    public MessageType type() {
        return MessageType.HELLO;
    }

    @Override
    public String toString() {
        return "Hello{magic=" + Integer.toHexString(magic) + ", version=" + version + '}';
    }
}
