package io.tidemark.protocol;

import java.util.function.ToIntFunction;

/** Decodes the one-byte codes of the wire protocol's enumerations (docs/wire-protocol.md). */
public final class WireCodes {

    private WireCodes() {
    }

    /**
     * The value whose code is {@code code}.
     *
     * @param what what the values are, for the error ("abort reason")
     * @throws ProtocolException {@link ErrorCode#MALFORMED} when no value has this code
     */
    public static <E> E decode(E[] values, ToIntFunction<? super E> codeOf, int code, String what) {
        for (E value : values) {
            if (codeOf.applyAsInt(value) == code) {
                return value;
            }
        }
        throw new ProtocolException(ErrorCode.MALFORMED, "unknown " + what + " code " + code);
    }
}
