package io.tidemark.protocol;

/** Constants of the TSO wire protocol; docs/wire-protocol.md is their documentation. */
public final class Protocol {

    /** First field of a HELLO: the ASCII bytes "TDMK". */
    public static final int MAGIC = 0x54444D4B;

    /**
     * The protocol version this code speaks. Version 5 added the TSO's commit certificate and release token to
     * COMMITTED (docs/security.md); version 4 added the abort reasons TIMED_OUT and FENCED (fences: the
     * TSO checks every table a COMMIT names against them) and COMMITs with table ids but no write-set ids (all writes
     * conflict-free); version 3 added commit tokens (BEGIN_REPLY hands one out, COMMIT
     * carries it back) and the TSO's limits in HELLO_REPLY; version 2 added the conflict level to HELLO_REPLY.
     */
    public static final short VERSION = 5;

    /** Bytes of the length prefix of every frame. */
    public static final int LENGTH_FIELD_BYTES = 4;

    /**
     * Largest frame body the TSO accepts before the HELLO handshake: a HELLO is 7 bytes, so anything longer is not a
     * Tidemark client (and must not make the TSO buffer it).
     */
    public static final int MAX_HELLO_FRAME_BYTES = 64;

    private Protocol() {
    }
}
