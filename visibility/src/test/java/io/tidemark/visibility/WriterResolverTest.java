package io.tidemark.visibility;

import io.tidemark.committable.CommitRecord;
import io.tidemark.committable.CommitState;
import io.tidemark.committable.InMemoryCommitTable;
import io.tidemark.protocol.CommitMode;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static io.tidemark.visibility.Rows.ROW;
import static io.tidemark.visibility.Rows.S;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The steps of deciding a writer (docs/architecture.md, "Reading a snapshot"), each policy, and each race. */
class WriterResolverTest {

    private static final long WRITER = 10 * S;
    private static final long COMMIT = 11 * S;

    private final InMemoryVersionStore store = new InMemoryVersionStore();
    private final InMemoryCommitTable commitTable = new InMemoryCommitTable();
    private final DecidedWriters decided = new DecidedWriters();
    private final List<String> effects = new ArrayList<>();
    private final ReaderEffects recordedEffects = new ReaderEffects() {
        @Override
        public void invalidatedPendingWriter(long writer) {
            effects.add("invalidated " + writer);
        }

        @Override
        public void healedShadowCell(long writer) {
            effects.add("healed " + writer);
        }
    };

    @Test
    void aShadowCellDecides() throws IOException {
        Rows.data(store, ROW, "q", WRITER, "v");
        Rows.shadow(store, ROW, "q", WRITER, COMMIT);
        assertEquals(WriterOutcome.committedAt(COMMIT), reader(CommitMode.LOW_LATENCY, 0).outcome(column(), WRITER));
        assertEquals(0, commitTable.size(), "nothing asked, nothing invalidated");
    }

    @Test
    void aCommitRecordDecidesAndReadersHealTheShadowCell() throws IOException {
        Rows.data(store, ROW, "q", WRITER, "v");
        commitTable.tryCommit(new CommitRecord(WRITER, COMMIT));
        assertEquals(WriterOutcome.committedAt(COMMIT), reader(CommitMode.BATCHED, 0).outcome(column(), WRITER));
        assertEquals(COMMIT, column().commitTimestampAt(WRITER), "the reader wrote the missing shadow cell");
        assertEquals(List.of("healed " + WRITER), effects);
    }

    @Test
    void theFastPathAndCompactionHealNothing() throws IOException {
        Rows.data(store, ROW, "q", WRITER, "v");
        commitTable.tryCommit(new CommitRecord(WRITER, COMMIT));
        assertEquals(WriterOutcome.committedAt(COMMIT), fastPathResolver()
                .outcome(column(), WRITER));
        assertEquals(WriterOutcome.committedAt(COMMIT), WriterResolver.forCompaction(commitTable, store)
                .outcome(column(), WRITER));
        assertNull(column().commitTimestampAt(WRITER));
    }

    @Test
    void anInvalidatedWriterNeverCommitted() throws IOException {
        Rows.data(store, ROW, "q", WRITER, "v");
        commitTable.invalidate(WRITER);
        assertEquals(WriterOutcome.NEVER_COMMITTED, reader(CommitMode.LOW_LATENCY, 0).outcome(column(), WRITER));
        assertEquals(List.of(), effects, "someone else invalidated it");
    }

    @Test
    void aWriterThatFinishedItsPostCommitSinceTheRowWasReadIsFoundByTheReRead() throws IOException {
        Rows.data(store, ROW, "q", WRITER, "v");
        ColumnVersions readBefore = column();
        // Between the row read and the lookup: shadow cell written, record deleted.
        Rows.shadow(store, ROW, "q", WRITER, COMMIT);
        assertEquals(WriterOutcome.committedAt(COMMIT), reader(CommitMode.LOW_LATENCY, 0).outcome(readBefore,
                WRITER));
        assertEquals(0, commitTable.size(), "nobody invalidated the writer");
    }

    @Test
    void aLowLatencyReaderInvalidatesAPendingWriter() throws IOException {
        Rows.data(store, ROW, "q", WRITER, "v");
        assertEquals(WriterOutcome.NEVER_COMMITTED, reader(CommitMode.LOW_LATENCY, 0).outcome(column(), WRITER));
        assertEquals(CommitState.invalidated(), commitTable.lookup(WRITER));
        assertEquals(false, commitTable.tryCommit(new CommitRecord(WRITER, COMMIT)), "the writer can never commit");
        assertEquals(List.of("invalidated " + WRITER), effects);
    }

    @Test
    void aBatchedReaderLeavesAPendingWriterOfItsEpochPendingAndAsksAgainNextTime() throws IOException {
        Rows.data(store, ROW, "q", WRITER, "v");
        WriterResolver reader = reader(CommitMode.BATCHED, WRITER - S);
        assertEquals(WriterOutcome.PENDING, reader.outcome(column(), WRITER));
        assertEquals(CommitState.absent(), commitTable.lookup(WRITER), "not invalidated");
        assertNull(decided.get(WRITER), "pending is never remembered");
        commitTable.tryCommit(new CommitRecord(WRITER, COMMIT));
        assertEquals(WriterOutcome.committedAt(COMMIT), reader.outcome(column(), WRITER));
        assertEquals(WriterOutcome.committedAt(COMMIT), decided.get(WRITER));
    }

    @Test
    void aBatchedReaderInvalidatesAPendingWriterOfAnEarlierTsoIncarnation() throws IOException {
        Rows.data(store, ROW, "q", WRITER, "v");
        assertEquals(WriterOutcome.NEVER_COMMITTED, reader(CommitMode.BATCHED, WRITER).outcome(column(), WRITER));
        assertEquals(CommitState.invalidated(), commitTable.lookup(WRITER));
    }

    @Test
    void theFastPathReportsAPendingWriterAndCompactionInvalidatesIt() throws IOException {
        Rows.data(store, ROW, "q", WRITER, "v");
        assertEquals(WriterOutcome.PENDING, fastPathResolver().outcome(column(), WRITER));
        assertEquals(CommitState.absent(), commitTable.lookup(WRITER));
        assertEquals(WriterOutcome.NEVER_COMMITTED, WriterResolver.forCompaction(commitTable, store)
                .outcome(column(), WRITER));
        assertEquals(CommitState.invalidated(), commitTable.lookup(WRITER));
    }

    @Test
    void aCommitRecordThatBeatsTheInvalidationDecides() throws IOException {
        Rows.data(store, ROW, "q", WRITER, "v");
        ColumnVersions readBefore = column();
        // The writer's record lands after the reader's shadow-cell re-read, just before its invalidation.
        store.afterRead(1, () -> commitTable.tryCommit(new CommitRecord(WRITER, COMMIT)));
        assertEquals(WriterOutcome.committedAt(COMMIT), reader(CommitMode.LOW_LATENCY, 0).outcome(readBefore,
                WRITER));
        assertEquals(CommitState.committed(COMMIT), commitTable.lookup(WRITER));
    }

    @Test
    void anInvalidationOfAWriterThatHadJustFinishedIsUndone() throws IOException {
        Rows.data(store, ROW, "q", WRITER, "v");
        ColumnVersions readBefore = column();
        // After the reader's lookup and re-read found nothing, the writer commits, writes its shadow cell and deletes
        // its record: the reader's invalidation then lands in an empty row, and is wrong.
        store.afterRead(1, () -> {
            commitTable.tryCommit(new CommitRecord(WRITER, COMMIT));
            Rows.shadow(store, ROW, "q", WRITER, COMMIT);
            commitTable.release(new CommitRecord(WRITER, COMMIT));
        });
        assertEquals(WriterOutcome.committedAt(COMMIT), reader(CommitMode.LOW_LATENCY, 0).outcome(readBefore,
                WRITER));
        assertEquals(CommitState.absent(), commitTable.lookup(WRITER), "the wrong invalidation was removed");
        assertEquals(List.of(), effects, "an invalidation undone is no invalidation");
    }

    @Test
    void finalOutcomesAreRememberedSoTheCommitTableIsAskedOnce() throws IOException {
        Rows.data(store, ROW, "q", WRITER, "v");
        Rows.data(store, ROW, "r", WRITER, "w");
        commitTable.invalidate(WRITER);
        WriterResolver reader = reader(CommitMode.LOW_LATENCY, 0);
        List<ColumnVersions> columns = ColumnVersions.partition(Rows.storedRow(store, ROW, 20 * S));
        assertEquals(WriterOutcome.NEVER_COMMITTED, reader.outcome(columns.get(0), WRITER));
        commitTable.failNext(1, InMemoryCommitTable.Fault.UNAVAILABLE);
        assertEquals(WriterOutcome.NEVER_COMMITTED, reader.outcome(columns.get(1), WRITER),
                "remembered: the commit table was not asked");
    }

    @Test
    void aCellBelowTheConversionWithoutAShadowCellIsALegacyWriteCommittedAtItsOwnVersion() throws IOException {
        long legacy = 3 * S + 123; // HBase's wall-clock versions have low bits set
        Rows.data(store, ROW, "q", legacy, "old");
        store.convertedAt(WRITER);
        WriterOutcome outcome = reader(CommitMode.LOW_LATENCY, 0).outcome(column(), legacy);
        assertEquals(WriterOutcome.legacyWriteAt(legacy), outcome);
        assertTrue(outcome.isLegacy());
        assertTrue(outcome.isCommittedBefore(WRITER + S), "every snapshot after the conversion sees it");
        assertEquals(CommitState.absent(), commitTable.lookup(legacy), "never invalidated");
        assertEquals(List.of(), effects, "nothing invalidated, nothing healed");
        assertEquals(WriterOutcome.legacyWriteAt(legacy), WriterResolver.forCompaction(commitTable, store)
                .outcome(column(), legacy), "compaction keeps it as committed too");
        assertEquals(WriterOutcome.legacyWriteAt(legacy), fastPathResolver()
                .outcome(column(), legacy));
        assertNull(column().commitTimestampAt(legacy), "no shadow cell is written for it");
    }

    @Test
    void legacyCellsAreNeverLookedUpInTheCommitTable() throws IOException {
        long legacy = 5 * S;
        Rows.data(store, ROW, "q", legacy, "old");
        store.convertedAt(WRITER);
        commitTable.failNext(1, InMemoryCommitTable.Fault.UNAVAILABLE);
        assertEquals(WriterOutcome.legacyWriteAt(legacy), reader(CommitMode.LOW_LATENCY, 0).outcome(column(),
                legacy), "decided without the (failing) commit table");
        assertEquals(0, commitTable.size());
    }

    @Test
    void aVersionAtOrAboveTheConversionIsResolvedAsATransactionalWrite() throws IOException {
        Rows.data(store, ROW, "q", WRITER, "v");
        store.convertedAt(WRITER);
        assertEquals(WriterOutcome.NEVER_COMMITTED, reader(CommitMode.LOW_LATENCY, 0).outcome(column(), WRITER),
                "a pending writer at the boundary is invalidated as usual");
        assertEquals(CommitState.invalidated(), commitTable.lookup(WRITER));
    }

    @Test
    void aShadowCellBelowTheConversionStillDecides() throws IOException {
        long early = 5 * S;
        Rows.data(store, ROW, "q", early, "v");
        Rows.shadow(store, ROW, "q", early, 6 * S);
        store.convertedAt(WRITER);
        assertEquals(WriterOutcome.committedAt(6 * S), reader(CommitMode.LOW_LATENCY, 0).outcome(column(), early));
    }

    private WriterResolver reader(CommitMode mode, long epoch) {
        return WriterResolver.forReader(new ReaderContext(20 * S, mode, epoch), commitTable, store, decided,
                recordedEffects);
    }

    private ColumnVersions column() throws IOException {
        List<ColumnVersions> columns = ColumnVersions.partition(Rows.storedRow(store, ROW, 20 * S));
        assertEquals(Bytes.toString(columns.get(0).qualifier()), "q");
        return columns.get(0);
    }

    private WriterResolver fastPathResolver() {
        return WriterResolver.forFastPath(commitTable, store, PendingWriterPolicy.REPORT, new DecidedWriters());
    }
}
