package io.tidemark.encoding;

import io.tidemark.protocol.CommitMode;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SnapshotAttributeTest {

    @Test
    void roundTrips() {
        SnapshotAttribute a = new SnapshotAttribute(4096L * 77, 4096L * 5, CommitMode.BATCHED, "ns:commits", 16);
        SnapshotAttribute b = SnapshotAttribute.decode(a.encode());
        assertEquals(a.startTimestamp(), b.startTimestamp());
        assertEquals(4096L * 5, b.epoch());
        assertEquals(CommitMode.BATCHED, b.commitMode());
        assertEquals("ns:commits", b.commitTable());
        assertEquals(16, b.commitTableBuckets());
    }

    @Test
    void malformedValuesAreRefusedWithTheReason() {
        IllegalArgumentException tooShort = assertThrows(IllegalArgumentException.class,
                () -> SnapshotAttribute.decode(new byte[] {2, 0, 0}));
        assertTrue(tooShort.getMessage().contains("too short"), tooShort.getMessage());
        byte[] future = new SnapshotAttribute(4096L, 0, CommitMode.LOW_LATENCY, "t", 1).encode();
        future[0] = 9;
        IllegalArgumentException newer = assertThrows(IllegalArgumentException.class,
                () -> SnapshotAttribute.decode(future));
        assertTrue(newer.getMessage().contains("upgrade the Tidemark coprocessor jar"), newer.getMessage());
        byte[] past = new SnapshotAttribute(4096L, 0, CommitMode.LOW_LATENCY, "t", 1).encode();
        past[0] = 1;
        IllegalArgumentException older = assertThrows(IllegalArgumentException.class,
                () -> SnapshotAttribute.decode(past));
        assertTrue(older.getMessage().contains("upgrade the Tidemark client"), older.getMessage());
    }

    @Test
    void anEpochAtOrAboveTheStartIsRefused() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> new SnapshotAttribute(4096L, 4096L, CommitMode.BATCHED, "t", 1));
        assertTrue(refused.getMessage().contains("epoch"), refused.getMessage());
    }
}
