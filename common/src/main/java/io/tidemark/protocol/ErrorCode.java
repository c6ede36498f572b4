package io.tidemark.protocol;

/** Error codes of the ERROR message; after an ERROR the server closes the connection. */
public enum ErrorCode {
    /** A frame whose body cannot be parsed (truncated, bad counts, trailing bytes, unknown enum code). */
    MALFORMED(1),
    /** A frame longer than the server's configured maximum. */
    FRAME_TOO_LARGE(2),
    /** A HELLO with the wrong magic number or a protocol version the server does not speak. */
    UNSUPPORTED_VERSION(3),
    /** A message type the receiver does not know or does not accept in this state (e.g. BEGIN before HELLO). */
    UNEXPECTED_MESSAGE(4),
    /** The server failed internally; the request's outcome is unknown to the client. */
    INTERNAL(5),
    /** The server is shutting down, or stopped serving (lost its lease or its timestamp bound). */
    UNAVAILABLE(6),
    /**
     * The server is a standby TSO: another TSO holds the lease and serves. The text names the active TSO's address
     * when known; clients that find the TSO through ZooKeeper follow the lease instead.
     */
    NOT_ACTIVE(7);

    private final short code;

    ErrorCode(int code) {
        this.code = (short) code;
    }

    public short code() {
        return code;
    }

    public static ErrorCode fromCode(short code) {
        for (ErrorCode c : values()) {
            if (c.code == code) {
                return c;
            }
        }
        return INTERNAL;
    }
}
