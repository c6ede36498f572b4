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
    NOT_ACTIVE(7),
    /**
     * The server requires TLS and the client spoke plaintext. Sent in plaintext, so that the client can read it; the
     * text names the client setting to change.
     */
    TLS_REQUIRED(8),
    /**
     * The client may not do what it asked: a COMMIT whose commit token the server did not issue for that start
     * timestamp (to this client), or a client certificate whose subject is not allowed.
     */
    NOT_AUTHORIZED(9),
    /** A COMMIT with more write-set (or table) ids than the server's maximum, announced in HELLO_REPLY. */
    WRITE_SET_TOO_LARGE(10),
    /** The server refused the connection to protect itself, e.g. because it has as many connections as it allows. */
    OVERLOADED(11),
    /** The client did not complete the handshake (TLS and HELLO) in the time the server allows. */
    HANDSHAKE_TIMEOUT(12);

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
