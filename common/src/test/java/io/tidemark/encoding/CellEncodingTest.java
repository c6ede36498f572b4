package io.tidemark.encoding;

import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CellEncodingTest {

    @Test
    void aUserColumnIsStoredUnderItsDataTombstoneAndShadowQualifiers() {
        byte[] q = Bytes.toBytes("q");
        List<byte[]> stored = CellEncoding.storedQualifiers(q);
        assertEquals(3, stored.size());
        assertArrayEquals(q, stored.get(0));
        assertArrayEquals(CellEncoding.tombstoneQualifier(q), stored.get(1));
        assertArrayEquals(CellEncoding.shadowQualifier(q), stored.get(2));
    }

    @Test
    void metadataQualifiersMapBackToTheirColumn() {
        byte[] q = Bytes.toBytes("balance");
        byte[] shadow = CellEncoding.shadowQualifier(q);
        byte[] tombstone = CellEncoding.tombstoneQualifier(q);
        assertTrue(CellEncoding.isShadowQualifier(shadow, 0, shadow.length));
        assertTrue(CellEncoding.isTombstoneQualifier(tombstone, 0, tombstone.length));
        assertFalse(CellEncoding.isMetadataQualifier(q));
        assertArrayEquals(q, CellEncoding.userQualifier(shadow, 0, shadow.length));
        assertArrayEquals(q, CellEncoding.userQualifier(tombstone, 0, tombstone.length));
    }

    @Test
    void metadataOfKindsNotKnownYetIsStillMetadata() {
        byte[] future = Bytes.add(Bytes.toBytes("balance"), new byte[] {0x00, 't', 'm', '.', 'z'});
        assertTrue(CellEncoding.isMetadataQualifier(future));
        assertFalse(CellEncoding.isShadowQualifier(future, 0, future.length));
        assertFalse(CellEncoding.isTombstoneQualifier(future, 0, future.length));
        assertArrayEquals(Bytes.toBytes("balance"), CellEncoding.userQualifier(future, 0, future.length));
        assertThrows(IllegalArgumentException.class, () -> CellEncoding.checkUserQualifier(future));
        assertFalse(CellEncoding.isMetadataQualifier(Bytes.add(Bytes.toBytes("x"), new byte[] {0x00, 't', 'm'})));
    }

    @Test
    void emptyQualifierHasMetadataToo() {
        byte[] shadow = CellEncoding.shadowQualifier(new byte[0]);
        assertArrayEquals(new byte[0], CellEncoding.userQualifier(shadow, 0, shadow.length));
    }

    @Test
    void userQualifierThatLooksLikeMetadataIsRefused() {
        byte[] sneaky = CellEncoding.shadowQualifier(Bytes.toBytes("x"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CellEncoding.checkUserQualifier(sneaky));
        assertTrue(e.getMessage().contains("reserves"));
    }

    @Test
    void commitTimestampRoundTrips() {
        byte[] v = CellEncoding.encodeCommitTimestamp(123456789L);
        assertEquals(123456789L, CellEncoding.decodeCommitTimestamp(v, 0, v.length));
        assertThrows(IllegalStateException.class, () -> CellEncoding.decodeCommitTimestamp(new byte[3], 0, 3));
    }

    @Test
    void tombstoneValuesAreDistinguished() {
        assertTrue(CellEncoding.isDeletingTombstone(CellEncoding.TOMBSTONE_DELETE, 0, 1));
        assertFalse(CellEncoding.isDeletingTombstone(CellEncoding.TOMBSTONE_CANCELLED, 0, 1));
    }
}
