package io.tidemark.client.fastpath;

import io.tidemark.fastpath.IdempotencyKey;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

/** Idempotency keys of one table: increasing sequence numbers, a stream id that lives one operation timeout. */
class OperationStreamTest {

    private static final long TIMEOUT = 60_000_000_000L;

    @Test
    void sequenceNumbersIncreaseAndTheIdStaysWithinOneTimeout() {
        OperationStream stream = OperationStream.take();
        IdempotencyKey first = stream.next(1_000, TIMEOUT);
        IdempotencyKey second = stream.next(1_000 + TIMEOUT - 1, TIMEOUT);
        assertArrayEquals(first.streamId(), second.streamId());
        assertEquals(first.sequence() + 1, second.sequence());
    }

    @Test
    void anIdOneTimeoutOldIsReplacedAndSequenceNumbersGoOn() {
        OperationStream stream = OperationStream.take();
        IdempotencyKey first = stream.next(1_000, TIMEOUT);
        IdempotencyKey later = stream.next(1_000 + TIMEOUT, TIMEOUT);
        assertFalse(Arrays.equals(first.streamId(), later.streamId()),
                "records of the old id may expire from now on, and their delete markers would hide new ones");
        assertTrue(later.sequence() > first.sequence());
        IdempotencyKey next = stream.next(1_000 + TIMEOUT + 5, TIMEOUT);
        assertArrayEquals(later.streamId(), next.streamId(), "the new id is used for a timeout from its drawing");
    }

    @Test
    void aClosedTablesStreamServesTheNextTable() {
        OperationStream stream = OperationStream.take();
        IdempotencyKey before = stream.next(1_000, TIMEOUT);
        stream.giveBack();
        OperationStream reused = OperationStream.take();
        assertSame(stream, reused);
        IdempotencyKey after = reused.next(2_000, TIMEOUT);
        assertArrayEquals(before.streamId(), after.streamId());
        assertTrue(after.sequence() > before.sequence(), "a stream's sequence never goes back");
    }
}
