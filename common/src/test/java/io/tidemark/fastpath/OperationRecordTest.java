package io.tidemark.fastpath;

import io.tidemark.fastpath.FastPathProtocol.Operation;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The operation record's value layout. */
class OperationRecordTest {

    @Test
    void aRecordReadsBackAsWritten() {
        OperationRecord increment = new OperationRecord(Operation.INCREMENT, 9, 1_700_000_000_000L, 4097, true, -3);
        byte[] encoded = increment.encode();
        assertEquals(35, encoded.length);
        OperationRecord decoded = OperationRecord.decode(encoded, 0, encoded.length);
        assertEquals(Operation.INCREMENT, decoded.operation());
        assertEquals(9, decoded.sequence());
        assertEquals(1_700_000_000_000L, decoded.writtenAtMillis());
        assertEquals(4097, decoded.version());
        assertTrue(decoded.applied());
        assertEquals(-3, decoded.counterValue());

        OperationRecord notApplied = new OperationRecord(Operation.CHECK_AND_MUTATE, 1, 5, 4096, false, 0);
        assertFalse(OperationRecord.decode(notApplied.encode(), 0, 35).applied());
    }

    @Test
    void anUnknownFormatIsRefusedRatherThanGuessed() {
        byte[] encoded = new OperationRecord(Operation.WRITE, 1, 2, 3, true, 0).encode();
        encoded[0] = 2;
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> OperationRecord.decode(encoded, 0, encoded.length));
        assertTrue(e.getMessage().contains("format 2"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> OperationRecord.decode(new byte[] {1, 3}, 0, 2));
        assertThrows(IllegalArgumentException.class, () -> new OperationRecord(Operation.READ, 1, 2, 3, true, 0));
    }
}
