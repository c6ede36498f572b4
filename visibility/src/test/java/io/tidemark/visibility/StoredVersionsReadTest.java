package io.tidemark.visibility;

import io.tidemark.encoding.CellEncoding;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.NavigableSet;

import static io.tidemark.visibility.Rows.F;
import static io.tidemark.visibility.Rows.ROW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The read of stored versions a snapshot makes, the same for a Get and a Scan (the client's and the region's). */
@Timeout(10)
class StoredVersionsReadTest {

    private static final byte[] Q = Bytes.toBytes("q");
    private static final long READS_UP_TO = 8192;

    @Test
    void aGetReadsItsColumnsWithTombstonesAndShadowCellsUpToTheReadersNewestVersion() throws IOException {
        Get stored = SnapshotQuery.storedVersionsGet(new Get(ROW).addColumn(F, Q), READS_UP_TO);
        assertStoredVersionsOfQ(stored.getFamilyMap().get(F));
        assertEquals(0, stored.getTimeRange().getMin());
        assertEquals(READS_UP_TO + 1, stored.getTimeRange().getMax());
        assertEquals(SnapshotQuery.VERSIONS_PER_READ, stored.getMaxVersions());
    }

    @Test
    void aScanReadsTheSameAsAGet() throws IOException {
        Scan stored = new Scan().addColumn(F, Q);
        SnapshotQuery.readStoredVersions(stored, READS_UP_TO);
        assertStoredVersionsOfQ(stored.getFamilyMap().get(F));
        assertEquals(0, stored.getTimeRange().getMin());
        assertEquals(READS_UP_TO + 1, stored.getTimeRange().getMax());
        assertEquals(SnapshotQuery.VERSIONS_PER_READ, stored.getMaxVersions());
    }

    @Test
    void aWholeFamilyStaysWhole() throws IOException {
        Get stored = SnapshotQuery.storedVersionsGet(new Get(ROW).addFamily(F), READS_UP_TO);
        assertTrue(stored.getFamilyMap().containsKey(F));
        assertNull(stored.getFamilyMap().get(F));
    }

    private static void assertStoredVersionsOfQ(NavigableSet<byte[]> qualifiers) {
        assertEquals(3, qualifiers.size());
        assertTrue(qualifiers.contains(Q));
        assertTrue(qualifiers.contains(CellEncoding.tombstoneQualifier(Q)));
        assertTrue(qualifiers.contains(CellEncoding.shadowQualifier(Q)));
    }
}
