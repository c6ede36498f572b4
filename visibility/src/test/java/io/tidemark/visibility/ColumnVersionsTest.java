package io.tidemark.visibility;

import io.tidemark.encoding.CellEncoding;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static io.tidemark.visibility.Rows.F;
import static io.tidemark.visibility.Rows.ROW;
import static io.tidemark.visibility.Rows.S;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ColumnVersionsTest {

    private static final byte[] Q = Bytes.toBytes("q");

    /**
     * Drift bug (issue 10): with two tombstones at one version (a transaction deleted the column, then put it again,
     * so its tombstone was rewritten as cancelled), the coprocessor kept the first cell and the client and the fast
     * path the last. HBase returns the newer first; the newer must win everywhere.
     */
    @Test
    void ofTwoCellsAtOneVersionTheNewerWins() {
        Cell cancelled = tombstone(7 * S, CellEncoding.TOMBSTONE_CANCELLED);
        Cell deleting = tombstone(7 * S, CellEncoding.TOMBSTONE_DELETE);
        // As a client gets them: no sequence ids, HBase's order (newest first).
        ColumnVersions fromClient = only(List.of(data(7 * S, "again"), cancelled, deleting));
        assertFalse(fromClient.isDeletionAt(7 * S), "the cancelled tombstone is the newer one");
        assertEquals("again", Bytes.toString(CellUtil.cloneValue(fromClient.dataAt(7 * S))));

        // As a region server sees them: sequence ids say which is newer, whatever the order of the list.
        Cell newer = sequenced(cancelled, 12);
        Cell older = sequenced(deleting, 11);
        assertFalse(only(List.of(older, newer)).isDeletionAt(7 * S));
        assertFalse(only(List.of(newer, older)).isDeletionAt(7 * S));
        assertTrue(only(List.of(sequenced(deleting, 13), sequenced(cancelled, 12))).isDeletionAt(7 * S));
    }

    /** Drift bug (issue 10): versions were newest first in some copies and oldest first in others. */
    @Test
    void versionsAreNewestFirstWhateverOrderTheCellsCome() {
        List<Cell> cells = new ArrayList<>();
        for (long v = 1; v <= 6; v++) {
            cells.add(data(v * S, "v" + v));
            cells.add(shadow(v * S, v * S + 1));
        }
        cells.add(tombstone(4 * S, CellEncoding.TOMBSTONE_DELETE));
        Random random = new Random(42);
        for (int round = 0; round < 5; round++) {
            Collections.shuffle(cells, random);
            ColumnVersions column = only(cells);
            assertEquals(List.of(6 * S, 5 * S, 4 * S, 3 * S, 2 * S, S), new ArrayList<>(column.writtenVersions()));
            assertEquals(List.of(6 * S, 5 * S, 4 * S, 3 * S, 2 * S, S), new ArrayList<>(column.shadowVersions()));
            assertEquals(S, column.completeDownTo(6), "six data versions fetched: complete down to the oldest");
            assertEquals(0, column.completeDownTo(7));
            assertTrue(column.isDeletionAt(4 * S));
            assertEquals(3 * S + 1, column.commitTimestampAt(3 * S));
        }
    }

    @Test
    void metadataOfUnknownKindsAndHBaseDeleteMarkersAreNotPartOfAColumn() {
        byte[] otherKind = Bytes.add(Q, new byte[] {0x00, 't', 'm', '.', 'o'});
        List<Cell> cells = List.of(data(2 * S, "value"),
                new KeyValue(ROW, F, otherKind, 3 * S, KeyValue.Type.Put, Bytes.toBytes("operation record")),
                new KeyValue(ROW, F, Q, 4 * S, KeyValue.Type.Delete));
        List<ColumnVersions> columns = ColumnVersions.partition(cells);
        assertEquals(1, columns.size());
        assertEquals(List.of(2 * S), new ArrayList<>(columns.get(0).writtenVersions()));
        assertNull(ColumnKey.of(cells.get(1)));
        assertEquals(new ColumnKey(F, Q), ColumnKey.of(shadow(S, 2 * S)));
    }

    @Test
    void fastPathVersionsAreThoseWithLowBitsAndTheirShadowCell() {
        ColumnVersions column = only(List.of(data(5 * S, "generic"), shadow(5 * S, 5 * S + 3),
                data(4 * S + 2, "fast"), shadow(4 * S + 2, 4 * S + 2), shadow(3 * S + 1, 3 * S + 1)));
        assertEquals(4 * S + 2, column.newestFastPathVersion(), "a shadow cell alone is no fast-path write");
        assertEquals(0, only(List.of(data(5 * S, "generic"))).newestFastPathVersion());
    }

    private static ColumnVersions only(List<Cell> cells) {
        List<ColumnVersions> columns = ColumnVersions.partition(cells);
        assertEquals(1, columns.size());
        return columns.get(0);
    }

    private static Cell data(long version, String value) {
        return new KeyValue(ROW, F, Q, version, KeyValue.Type.Put, Bytes.toBytes(value));
    }

    private static Cell tombstone(long version, byte[] value) {
        return new KeyValue(ROW, F, CellEncoding.tombstoneQualifier(Q), version, KeyValue.Type.Put, value);
    }

    private static Cell shadow(long version, long commit) {
        return new KeyValue(ROW, F, CellEncoding.shadowQualifier(Q), version, KeyValue.Type.Put,
                CellEncoding.encodeCommitTimestamp(commit));
    }

    private static Cell sequenced(Cell cell, long sequenceId) {
        KeyValue copy = new KeyValue(CellUtil.cloneRow(cell), CellUtil.cloneFamily(cell), CellUtil.cloneQualifier(cell),
                cell.getTimestamp(), KeyValue.Type.Put, CellUtil.cloneValue(cell));
        copy.setSequenceId(sequenceId);
        return copy;
    }
}
