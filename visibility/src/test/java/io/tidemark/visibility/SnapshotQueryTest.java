package io.tidemark.visibility;

import io.tidemark.committable.CommitRecord;
import io.tidemark.committable.InMemoryCommitTable;
import io.tidemark.encoding.CellEncoding;
import io.tidemark.protocol.CommitMode;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static io.tidemark.visibility.Rows.F;
import static io.tidemark.visibility.Rows.ROW;
import static io.tidemark.visibility.Rows.S;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Which version of each column a snapshot sees. */
class SnapshotQueryTest {

    private final InMemoryVersionStore store = new InMemoryVersionStore();
    private final InMemoryCommitTable commitTable = new InMemoryCommitTable();

    @Test
    void theNewestVersionCommittedBeforeTheStartDecides() throws IOException {
        committed("q", 2 * S, 3 * S, "old");
        committed("q", 4 * S, 9 * S, "committed after the reader started");
        committed("r", 5 * S, 6 * S, "r");
        assertEquals("q=old r=r", read(8 * S));
        assertEquals("q=committed after the reader started r=r", read(10 * S));
    }

    @Test
    void theReaderSeesItsOwnWrites() throws IOException {
        committed("q", 2 * S, 3 * S, "old");
        Rows.data(store, ROW, "q", 8 * S, "mine");
        assertEquals("q=mine", read(8 * S));
        assertEquals("q=old", read(9 * S), "to anyone else the write is pending: invalidated");
    }

    @Test
    void aDeletionHidesTheColumnAndACancelledTombstoneDoesNot() throws IOException {
        committed("q", 2 * S, 3 * S, "old");
        Rows.deletion(store, ROW, "q", 4 * S);
        Rows.shadow(store, ROW, "q", 4 * S, 5 * S);
        committed("r", 2 * S, 3 * S, "old r");
        store.put(new Put(ROW).addColumn(F, Bytes.toBytes("r"), 6 * S, Bytes.toBytes("put again"))
                .addColumn(F, CellEncoding.tombstoneQualifier(Bytes.toBytes("r")), 6 * S,
                        CellEncoding.TOMBSTONE_CANCELLED));
        Rows.shadow(store, ROW, "r", 6 * S, 7 * S);
        assertEquals("q=old r=old r", read(5 * S));
        assertEquals("r=put again", read(8 * S));
    }

    @Test
    void olderVersionsAreFetchedWhenTheFetchedOnesAreAllInvisible() throws IOException {
        committed("q", 2 * S, 3 * S, "committed");
        for (int i = 0; i < 2 * SnapshotQuery.VERSIONS_PER_READ + 1; i++) {
            long writer = (10 + i) * S;
            Rows.data(store, ROW, "q", writer, "invisible " + i);
            if (i % 2 == 0) {
                commitTable.invalidate(writer);
            }
        }
        assertEquals("q=committed", read(30 * S));
    }

    @Test
    void aColumnWithNoVisibleVersionIsAbsent() throws IOException {
        Rows.data(store, ROW, "q", 2 * S, "crashed");
        committed("r", 2 * S, 9 * S, "later");
        assertEquals("", read(5 * S));
    }

    @Test
    void otherMetadataIsPassedOver() throws IOException {
        committed("q", 2 * S, 3 * S, "value");
        store.put(new Put(ROW).addColumn(F, Bytes.add(Bytes.toBytes("q"), new byte[] {0x00, 't', 'm', '.', 'o'}),
                4 * S, Bytes.toBytes("a metadata kind this reader does not know")));
        assertEquals("q=value", read(5 * S));
    }

    private void committed(String qualifier, long writer, long commit, String value) throws IOException {
        Rows.data(store, ROW, qualifier, writer, value);
        commitTable.tryCommit(new CommitRecord(writer, commit));
    }

    private String read(long snapshot) throws IOException {
        SnapshotQuery query = new SnapshotQuery(new ReaderContext(snapshot, CommitMode.LOW_LATENCY, 0), commitTable,
                store, new DecidedWriters());
        return Rows.show(query.visibleCells(Rows.storedRow(store, ROW, snapshot)));
    }
}
