package io.tidemark.encoding;

import io.tidemark.protocol.CommitMode;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SnapshotAttributeTest {

    @Test
    void roundTrips() {
        SnapshotAttribute a = new SnapshotAttribute(4096L * 77, CommitMode.BATCHED, "ns:commits", 16);
        SnapshotAttribute b = SnapshotAttribute.decode(a.encode());
        assertEquals(a.startTimestamp(), b.startTimestamp());
        assertEquals(CommitMode.BATCHED, b.commitMode());
        assertEquals("ns:commits", b.commitTable());
        assertEquals(16, b.commitTableBuckets());
    }

    @Test
    void malformedValuesAreRefusedWithTheReason() {
        IllegalArgumentException tooShort = assertThrows(IllegalArgumentException.class,
                () -> SnapshotAttribute.decode(new byte[3]));
        assertTrue(tooShort.getMessage().contains("too short"), tooShort.getMessage());
        byte[] future = new SnapshotAttribute(4096L, CommitMode.LOW_LATENCY, "t", 1).encode();
        future[0] = 9;
        IllegalArgumentException format = assertThrows(IllegalArgumentException.class,
                () -> SnapshotAttribute.decode(future));
        assertTrue(format.getMessage().contains("upgrade"), format.getMessage());
    }
}
