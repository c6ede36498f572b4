package io.tidemark.encoding;

import io.tidemark.protocol.CommitMode;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SnapshotAttributeTest {

    @Test
    void roundTrips() {
        long start = 4096L * 77;
        SnapshotAttribute a = new SnapshotAttribute(start, 4096L * 5, start + 3842, true, CommitMode.BATCHED,
                "ns:commits", 16);
        SnapshotAttribute b = SnapshotAttribute.decode(a.encode());
        assertEquals(a.startTimestamp(), b.startTimestamp());
        assertEquals(4096L * 5, b.epoch());
        assertEquals(start + 3842, b.ownVersionsUpTo());
        assertTrue(b.everyOwnVersion());
        assertEquals(CommitMode.BATCHED, b.commitMode());
        assertEquals("ns:commits", b.commitTable());
        assertEquals(16, b.commitTableBuckets());
    }

    @Test
    void theFormatWithoutCheckpointsIsStillReadAsSeeingOwnWritesAtTheStart() {
        long start = 4096L * 9;
        ByteArrayOutputStream old = new ByteArrayOutputStream();
        old.write(2);
        old.writeBytes(Bytes.toBytes(start));
        old.writeBytes(Bytes.toBytes(4096L));
        old.write(CommitMode.LOW_LATENCY.code());
        old.write(4);
        old.writeBytes("commits".getBytes(StandardCharsets.UTF_8));
        SnapshotAttribute decoded = SnapshotAttribute.decode(old.toByteArray());
        assertEquals(start, decoded.startTimestamp());
        assertEquals(4096L, decoded.epoch());
        assertEquals(start, decoded.ownVersionsUpTo());
        assertFalse(decoded.everyOwnVersion());
        assertEquals(CommitMode.LOW_LATENCY, decoded.commitMode());
        assertEquals("commits", decoded.commitTable());
        assertEquals(4, decoded.commitTableBuckets());
    }

    @Test
    void theFormatBeforeSnapshotAllIsStillReadAsSeeingTheNewestVersion() {
        long start = 4096L * 9;
        ByteArrayOutputStream old = new ByteArrayOutputStream();
        old.write(3);
        old.writeBytes(Bytes.toBytes(start));
        old.writeBytes(Bytes.toBytes(4096L));
        old.writeBytes(Bytes.toBytes(start + 3841));
        old.write(CommitMode.BATCHED.code());
        old.write(2);
        old.writeBytes("commits".getBytes(StandardCharsets.UTF_8));
        SnapshotAttribute decoded = SnapshotAttribute.decode(old.toByteArray());
        assertEquals(start, decoded.startTimestamp());
        assertEquals(start + 3841, decoded.ownVersionsUpTo());
        assertFalse(decoded.everyOwnVersion());
        assertEquals(CommitMode.BATCHED, decoded.commitMode());
        assertEquals("commits", decoded.commitTable());
        assertEquals(2, decoded.commitTableBuckets());
    }

    @Test
    void anUnknownOwnVersionsShownCodeIsRefused() {
        byte[] value = new SnapshotAttribute(4096L, 0, 4096L, true, CommitMode.LOW_LATENCY, "t", 1).encode();
        value[1 + 3 * Long.BYTES] = 7;
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> SnapshotAttribute.decode(value));
        assertTrue(refused.getMessage().contains("own-versions-shown code 7"), refused.getMessage());
    }

    @Test
    void malformedValuesAreRefusedWithTheReason() {
        IllegalArgumentException tooShort = assertThrows(IllegalArgumentException.class,
                () -> SnapshotAttribute.decode(new byte[] {3, 0, 0}));
        assertTrue(tooShort.getMessage().contains("too short"), tooShort.getMessage());
        byte[] future = new SnapshotAttribute(4096L, 0, 4096L, false, CommitMode.LOW_LATENCY, "t", 1).encode();
        future[0] = 9;
        IllegalArgumentException newer = assertThrows(IllegalArgumentException.class,
                () -> SnapshotAttribute.decode(future));
        assertTrue(newer.getMessage().contains("upgrade the Tidemark coprocessor jar"), newer.getMessage());
        byte[] past = new SnapshotAttribute(4096L, 0, 4096L, false, CommitMode.LOW_LATENCY, "t", 1).encode();
        past[0] = 1;
        IllegalArgumentException older = assertThrows(IllegalArgumentException.class,
                () -> SnapshotAttribute.decode(past));
        assertTrue(older.getMessage().contains("upgrade the Tidemark client"), older.getMessage());
    }

    @Test
    void anEpochAtOrAboveTheStartIsRefused() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> new SnapshotAttribute(4096L, 4096L, 4096L, false, CommitMode.BATCHED, "t", 1));
        assertTrue(refused.getMessage().contains("epoch"), refused.getMessage());
    }

    @Test
    void anOwnVersionsBoundOutsideTheTransactionsVersionsIsRefused() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> new SnapshotAttribute(8192L, 0, 8192L + 4096, false, CommitMode.BATCHED, "t", 1));
        assertTrue(refused.getMessage().contains("own versions"), refused.getMessage());
    }
}
