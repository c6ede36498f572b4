package io.tidemark.protocol;

/** Constants of the TSO wire protocol; docs/wire-protocol.md is their documentation. */
public final class Protocol {

    /** First field of a HELLO: the ASCII bytes "TDMK". */
    public static final int MAGIC = 0x54444D4B;

    /** The protocol version this code speaks. */
    public static final short VERSION = 2;

    /** Bytes of the length prefix of every frame. */
    public static final int LENGTH_FIELD_BYTES = 4;

    /** Default upper bound of a frame body (type byte included), in bytes. */
    public static final int DEFAULT_MAX_FRAME_BYTES = 16 * 1024 * 1024;

    private Protocol() {
    }
}
