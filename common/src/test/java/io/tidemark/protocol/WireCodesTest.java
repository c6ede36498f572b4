package io.tidemark.protocol;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class WireCodesTest {

    @Test
    void everyAbortReasonDecodesFromItsOwnCode() {
        for (AbortReason reason : AbortReason.values()) {
            assertEquals(reason, AbortReason.fromCode(reason.code()));
        }
    }

    @Test
    void anUnknownCodeIsAMalformedFrame() {
        ProtocolException e = assertThrows(ProtocolException.class, () -> CommitMode.fromCode((byte) 9));
        assertEquals(ErrorCode.MALFORMED, e.errorCode());
        assertEquals("unknown commit mode code 9", e.getMessage());
    }
}
