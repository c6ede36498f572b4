package io.tidemark.protocol;

import org.jspecify.annotations.Nullable;

/** The one-byte type code that follows the length of every frame (see docs/wire-protocol.md). */
public enum MessageType {
    HELLO(1),
    HELLO_REPLY(2),
    BEGIN(3),
    BEGIN_REPLY(4),
    COMMIT(5),
    COMMITTED(6),
    ABORTED(7),
    ERROR(8);

    private static final MessageType[] BY_CODE = new MessageType[9];

    static {
        for (MessageType t : values()) {
            BY_CODE[t.code] = t;
        }
    }

    private final byte code;

    MessageType(int code) {
        this.code = (byte) code;
    }

    public byte code() {
        return code;
    }

    /** The type with this code, or null when the code is unknown. */
    public static @Nullable MessageType fromCode(byte code) {
        return code > 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
