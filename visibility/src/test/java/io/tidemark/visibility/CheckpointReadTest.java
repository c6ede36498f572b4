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
import java.util.ArrayList;
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
    void snapshotAllReturnsEveryOwnVersionNewestFirstThenTheSnapshotVersion() throws IOException {
        committed("q", 2 * S, 3 * S, "older committed");
        committed("q", 4 * S, 5 * S, "snapshot");
        committed("q", 6 * S, START + S, "committed after the start");
        for (int k = 0; k < 6; k++) {
            Rows.data(store, ROW, "q", Timestamps.checkpointVersion(START, k), "epoch " + k);
        }
        ReaderContext everyOwn = everyOwnVersionUpTo(Timestamps.checkpointVersion(START, 5));
        List<Cell> cells = readCells(everyOwn, 100);
        assertEquals("q=epoch 5 q=epoch 4 q=epoch 3 q=epoch 2 q=epoch 1 q=epoch 0 q=snapshot", Rows.show(cells),
                "own versions newest first (more than one stored read holds), then only the snapshot's version");
        assertEquals(List.of(Timestamps.checkpointVersion(START, 5), Timestamps.checkpointVersion(START, 4),
                Timestamps.checkpointVersion(START, 3), Timestamps.checkpointVersion(START, 2),
                Timestamps.checkpointVersion(START, 1), START, 4 * S), timestamps(cells),
                "each cell keeps its stored version");
        assertEquals("q=epoch 5 q=epoch 4 q=epoch 3", Rows.show(readCells(everyOwn, 3)), "max versions bound it");
    }

    @Test
    void snapshotAllWithoutOwnWritesReturnsOnlyTheSnapshotVersion() throws IOException {
        committed("q", 2 * S, 3 * S, "older committed");
        committed("q", 4 * S, 5 * S, "snapshot");
        assertEquals("q=snapshot", Rows.show(readCells(everyOwnVersionUpTo(START), 10)));
    }

    @Test
    void snapshotAllStopsAtAnOwnDeletionAndShowsNothingBelowIt() throws IOException {
        committed("q", 2 * S, 3 * S, "snapshot");
        Rows.data(store, ROW, "q", START, "epoch 0");
        Rows.deletion(store, ROW, "q", Timestamps.checkpointVersion(START, 1));
        Rows.data(store, ROW, "q", Timestamps.checkpointVersion(START, 2), "epoch 2");
        committed("r", 2 * S, 3 * S, "r snapshot");
        Rows.deletion(store, ROW, "r", Timestamps.checkpointVersion(START, 2));
        assertEquals("q=epoch 2", Rows.show(readCells(everyOwnVersionUpTo(Timestamps.checkpointVersion(START, 2)), 10)),
                "q: the put above the deletion only; r: deleted in the newest checkpoint, nothing");
        assertEquals("r=r snapshot",
                Rows.show(readCells(everyOwnVersionUpTo(Timestamps.checkpointVersion(START, 1)), 10)),
                "bounded to checkpoint 1: q's deletion is its newest visible version; r's is not visible yet");
    }

    @Test
    void snapshotAllWithOneVersionReadsAsSnapshot() throws IOException {
        committed("q", 2 * S, 3 * S, "q snapshot");
        Rows.data(store, ROW, "q", START, "q epoch 0");
        Rows.data(store, ROW, "q", Timestamps.checkpointVersion(START, 1), "q epoch 1");
        committed("r", 2 * S, 3 * S, "r snapshot");
        Rows.deletion(store, ROW, "r", Timestamps.checkpointVersion(START, 1));
        committed("s", 2 * S, 3 * S, "s snapshot");
        for (int checkpoint = 0; checkpoint <= 2; checkpoint++) {
            long upTo = Timestamps.checkpointVersion(START, checkpoint);
            assertEquals(Rows.show(readCells(new ReaderContext(START, CommitMode.LOW_LATENCY, 0, upTo), 1)),
                    Rows.show(readCells(everyOwnVersionUpTo(upTo), 1)), "up to checkpoint " + checkpoint);
        }
        assertEquals("q=q epoch 1 s=s snapshot",
                Rows.show(readCells(everyOwnVersionUpTo(Timestamps.checkpointVersion(START, 1)), 1)));
    }

    @Test
    void aReaderThatDoesNotSeeEveryOwnVersionGetsOneVersionWhateverItAsks() throws IOException {
        committed("q", 2 * S, 3 * S, "snapshot");
        Rows.data(store, ROW, "q", START, "epoch 0");
        Rows.data(store, ROW, "q", Timestamps.checkpointVersion(START, 1), "epoch 1");
        ReaderContext newestOnly = new ReaderContext(START, CommitMode.LOW_LATENCY, 0,
                Timestamps.checkpointVersion(START, 1));
        assertEquals("q=epoch 1", Rows.show(readCells(newestOnly, 10)));
        assertThrows(IllegalArgumentException.class, () -> readCells(newestOnly, 0));
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
        return Rows.show(query.visibleCells(storedRow(reader)));
    }

    private List<Cell> readCells(ReaderContext reader, int maxVersions) throws IOException {
        SnapshotQuery query = new SnapshotQuery(reader, commitTable, store, new DecidedWriters());
        return query.visibleCells(storedRow(reader), maxVersions);
    }

    private List<Cell> storedRow(ReaderContext reader) throws IOException {
        Result stored = store.get(new Get(ROW).addFamily(F).setTimeRange(0, reader.readsUpTo() + 1)
                .readVersions(SnapshotQuery.VERSIONS_PER_READ));
        return stored.isEmpty() ? List.of() : Arrays.asList(stored.rawCells());
    }

    /** A reader at SNAPSHOT_ALL: every own version up to {@code upTo}, then the snapshot's. */
    private static ReaderContext everyOwnVersionUpTo(long upTo) {
        return new ReaderContext(START, CommitMode.LOW_LATENCY, 0, upTo, true);
    }

    private static List<Long> timestamps(List<Cell> cells) {
        List<Long> timestamps = new ArrayList<>();
        for (Cell c : cells) {
            timestamps.add(c.getTimestamp());
        }
        return timestamps;
    }
}
