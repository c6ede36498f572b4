package io.tidemark.visibility;

import io.tidemark.committable.CommitRecord;
import io.tidemark.committable.InMemoryCommitTable;
import io.tidemark.protocol.CommitMode;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;

import static io.tidemark.visibility.Rows.F;
import static io.tidemark.visibility.Rows.ROW;
import static io.tidemark.visibility.Rows.S;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How a transaction with checkpoints reads its own writes, and how everyone else reads them. */
class CheckpointReadTest {

    private static final long START = 8 * S;

    private final InMemoryVersionStore store = new InMemoryVersionStore();
    private final InMemoryCommitTable commitTable = new InMemoryCommitTable();

    @Test
    void aReaderBoundedToThePreviousCheckpointDoesNotSeeTheCurrentOne() throws IOException {
        committed("q", 2 * S, 3 * S, "committed");
        Rows.data(store, ROW, "q", Timestamps.checkpointVersion(START, 0), "epoch 0");
        Rows.data(store, ROW, "q", Timestamps.checkpointVersion(START, 1), "epoch 1");
        Rows.data(store, ROW, "q", Timestamps.checkpointVersion(START, 2), "epoch 2");
        assertEquals("q=epoch 2", readOwn(Timestamps.checkpointVersion(START, 2)));
        assertEquals("q=epoch 1", readOwn(Timestamps.checkpointVersion(START, 1)));
        assertEquals("q=epoch 0", readOwn(Timestamps.checkpointVersion(START, 0)));
        assertEquals("q=committed", readOwn(START - 1), "no own write visible: the snapshot decides");
    }

    @Test
    void aHiddenOwnWriteIsNeverResolvedAgainstTheCommitTable() throws IOException {
        Rows.data(store, ROW, "q", Timestamps.checkpointVersion(START, 1), "current");
        assertEquals("", readOwn(START));
        assertFalse(commitTable.lookup(START).isInvalidated(), "the reader must not invalidate itself");
    }

    @Test
    void aDeletionInALaterCheckpointHidesTheColumnOnlyFromThatCheckpointOn() throws IOException {
        Rows.data(store, ROW, "q", START, "written");
        Rows.deletion(store, ROW, "q", Timestamps.checkpointVersion(START, 1));
        assertEquals("q=written", readOwn(START));
        assertEquals("", readOwn(Timestamps.checkpointVersion(START, 1)));
    }

    @Test
    void othersSeeEveryCheckpointThroughTheOneCommitRecord() throws IOException {
        Rows.data(store, ROW, "q", START, "epoch 0");
        Rows.data(store, ROW, "r", START, "r at epoch 0");
        Rows.data(store, ROW, "q", Timestamps.checkpointVersion(START, 1), "epoch 1");
        assertEquals("", read(new ReaderContext(20 * S, CommitMode.BATCHED, 0)), "pending, not invalidated");
        commitTable.tryCommit(new CommitRecord(START, 10 * S));
        assertEquals("q=epoch 1 r=r at epoch 0", read(new ReaderContext(20 * S, CommitMode.BATCHED, 0)));
        assertEquals("", read(new ReaderContext(9 * S, CommitMode.BATCHED, 0)), "committed after that snapshot");
    }

    @Test
    void anInvalidatedWriterLosesEveryCheckpoint() throws IOException {
        committed("q", 2 * S, 3 * S, "committed");
        Rows.data(store, ROW, "q", START, "epoch 0");
        Rows.data(store, ROW, "q", Timestamps.checkpointVersion(START, 3), "epoch 3");
        assertEquals("q=committed", read(new ReaderContext(20 * S, CommitMode.LOW_LATENCY, 0)));
        assertTrue(commitTable.lookup(START).isInvalidated(), "the low-latency reader invalidated the writer");
    }

    @Test
    void aFastPathVersionJustAboveTheStartIsNotTheReadersOwn() throws IOException {
        Rows.data(store, ROW, "q", START + 1, "fast path");
        Rows.shadow(store, ROW, "q", START + 1, START + 1);
        assertEquals("", readOwn(Timestamps.checkpointVersion(START, 5)));
        assertEquals("q=fast path", read(new ReaderContext(9 * S, CommitMode.LOW_LATENCY, 0)));
    }

    @Test
    void anOwnVersionsBoundOutsideTheTransactionIsRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> new ReaderContext(START, CommitMode.LOW_LATENCY, 0, START + S));
        assertThrows(IllegalArgumentException.class,
                () -> new ReaderContext(START, CommitMode.LOW_LATENCY, 0, START - 2));
    }

    private void committed(String qualifier, long writer, long commit, String value) throws IOException {
        Rows.data(store, ROW, qualifier, writer, value);
        commitTable.tryCommit(new CommitRecord(writer, commit));
    }

    private String readOwn(long ownVersionsUpTo) throws IOException {
        return read(new ReaderContext(START, CommitMode.LOW_LATENCY, 0, ownVersionsUpTo));
    }

    private String read(ReaderContext reader) throws IOException {
        SnapshotQuery query = new SnapshotQuery(reader, commitTable, store, new DecidedWriters());
        Result stored = store.get(new Get(ROW).addFamily(F).setTimeRange(0, reader.readsUpTo() + 1)
                .readVersions(SnapshotQuery.VERSIONS_PER_READ));
        List<Cell> cells = stored.isEmpty() ? List.of() : Arrays.asList(stored.rawCells());
        return Rows.show(query.visibleCells(cells));
    }
}
