package io.tidemark.chaos.check;

import io.tidemark.chaos.history.Key;
import io.tidemark.chaos.history.KeySpace;
import io.tidemark.chaos.history.Op;
import io.tidemark.chaos.history.Told;
import io.tidemark.chaos.history.Txn;
import io.tidemark.chaos.history.WatermarkSamples;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.tidemark.chaos.check.Histories.T;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checker's self-test: a correct history passes, and each doctored history (stale read, lost update, read of an
 * aborted write, lost committed write, scan/get disagreement, wrongly told outcome, a write applied twice, ...) is
 * detected with the right kind of anomaly. Pure: no HBase.
 */
class HistoryCheckerTest {

    private static final KeySpace KEYS = KeySpace.of(4);

    private final Histories h = new Histories();

    /** A small correct history: overwrites, a delete, own writes, a scan, fast-path writes and reads. */
    private void correctHistory() {
        h.generic("p0", 1).write("r00:a", "p0.1.0").write("r01:a", "p0.1.1").committedAt(2);
        h.generic("p1", 3).read("r00:a", "p0.1.0").write("r00:a", "p1.2.0").read("r00:a", "p1.2.0").committedAt(4);
        h.generic("p2", 5).scan("r00", null, Map.of("r00:a", "p1.2.0", "r01:a", "p0.1.1"))
                .read("r01:a", "p0.1.1").write("r01:a", null).committedAt(6);
        h.fastPathPut("p3", 6 * T + 5, "r02:b", "p3.4.0");
        h.fastPathGet("p3", 6 * T + 5, Map.of("r02:a", "-", "r02:b", "p3.4.0", "r02:n", "-"));
        h.generic("p0", 7).scan("r00", "r03", Map.of("r00:a", "p1.2.0", "r02:b", "p3.4.0"))
                .told(Told.committed(7 * T));
    }

    private CheckResult check(StoreImage store) {
        return new HistoryChecker(KEYS).check(h.txns(), store);
    }

    private static List<Anomaly.Kind> kinds(CheckResult result) {
        return result.anomalies().stream().map(Anomaly::kind).distinct().collect(Collectors.toList());
    }

    @Test
    void aCorrectHistoryHasNoAnomaly() {
        correctHistory();
        CheckResult result = check(h.consistentStore());
        assertEquals(List.of(), result.anomalies());
        assertTrue(result.readsChecked() > 10, "reads checked: " + result.readsChecked());
        assertEquals(0, result.readsUnchecked());
        assertEquals(4, result.committed());
    }

    /**
     * An old TSO that still answers after a new one did (a pause or partition it woke from believing it held the
     * lease): p9's start timestamp, asked for after p1's commit timestamp had arrived, is below it.
     */
    @Test
    void aTimestampHandedOutAfterAHigherOneIsDetected() {
        h.generic("p0", 1).timed(100, 110, 120, 130).write("r00:a", "p0.1.0").committedAt(2);
        h.generic("p1", 10).timed(200, 210, 220, 230).write("r01:a", "p1.2.0").committedAt(11);
        h.generic("p9", 5).timed(300, 310, 0, 0).read("r02:a", null).told(Told.NOTHING);
        CheckResult result = check(h.consistentStore());
        assertEquals(List.of(Anomaly.Kind.TSO_ANSWERS_OUT_OF_ORDER), kinds(result));
        assertTrue(result.anomalies().get(0).explanation().contains("p9/3"), result.anomalies().toString());
    }

    /** A read-only transaction commits at its start timestamp without asking the TSO: no answer to order. */
    @Test
    void aReadOnlyCommitIsNoAnswerOfTheTso() {
        h.generic("p0", 10).timed(100, 110, 120, 130).write("r00:a", "p0.1.0").committedAt(11);
        h.generic("p1", 5).timed(50, 60, 200, 210).read("r01:a", null).committedAt(5);
        assertEquals(List.of(), check(h.consistentStore()).anomalies());
    }

    /** Answers whose round trips overlap may come in either order: one TSO may have answered them either way. */
    @Test
    void overlappingRoundTripsAreNotOutOfOrder() {
        h.generic("p0", 10).timed(100, 300, 400, 500).write("r00:a", "p0.1.0").committedAt(11);
        h.generic("p1", 5).timed(200, 450, 460, 470).write("r01:a", "p1.2.0").committedAt(12);
        assertEquals(List.of(), check(h.consistentStore()).anomalies());
    }

    @Test
    void aPersistedLowWatermarkThatWentDownIsDetected() {
        correctHistory();
        List<WatermarkSamples.Sample> samples = List.of(new WatermarkSamples.Sample(1, 0),
                new WatermarkSamples.Sample(2, 3 * T), new WatermarkSamples.Sample(3, 3 * T),
                new WatermarkSamples.Sample(4, 2 * T), new WatermarkSamples.Sample(5, 4 * T));
        CheckResult result = new HistoryChecker(KEYS).check(h.txns(), h.consistentStore(), samples);
        assertEquals(List.of(Anomaly.Kind.LOW_WATERMARK_WENT_DOWN), kinds(result));
        assertEquals(1, result.anomalies().size());
    }

    @Test
    void aStaleReadIsDetected() {
        correctHistory();
        // Begins after p1 committed at 4, yet reads p0's older value.
        h.generic("p9", 5).read("r00:a", "p0.1.0").told(Told.committed(5 * T));
        CheckResult result = check(h.consistentStore());
        assertEquals(List.of(Anomaly.Kind.STALE_READ), kinds(result));
        assertTrue(result.anomalies().get(0).explanation().contains("r00:a"), result.anomalies().toString());
    }

    @Test
    void aReadOfAnAbortedWriteIsDetected() {
        correctHistory();
        h.generic("p8", 8).write("r03:a", "p8.1.0").told(Told.of(Told.Kind.ABORTED, "CONFLICT"));
        h.generic("p9", 9).read("r03:a", "p8.1.0").told(Told.committed(9 * T));
        assertEquals(List.of(Anomaly.Kind.READ_OF_UNCOMMITTED_WRITE), kinds(check(h.consistentStore())));
    }

    @Test
    void aLostUpdateIsDetected() {
        correctHistory();
        // Both read r03:n = absent and wrote 1, with overlapping [start, commit]: first committer wins is broken.
        h.generic("p8", 8).read("r03:n", null).write("r03:n", "#1").committedAt(10);
        h.generic("p9", 9).read("r03:n", null).write("r03:n", "#1").committedAt(11);
        assertEquals(List.of(Anomaly.Kind.FIRST_COMMITTER_WINS_VIOLATED), kinds(check(h.consistentStore())));
    }

    @Test
    void aFastPathWriteInsideAGenericWritersIntervalViolatesFirstCommitterWins() {
        correctHistory();
        h.generic("p8", 8).write("r03:a", "p8.1.0").committedAt(10);
        h.fastPathPut("p9", 9 * T + 1, "r03:a", "p9.1.0");
        assertEquals(List.of(Anomaly.Kind.FIRST_COMMITTER_WINS_VIOLATED), kinds(check(h.consistentStore())));
    }

    @Test
    void aLostCommittedWriteIsDetectedInTheFinalState() {
        correctHistory();
        StoreImage store = h.consistentStore();
        // The verifier reads after the run; r02:b was committed by the fast path but is gone.
        h.generic("verify-1", 20).read("r02:b", null).read("r00:a", "p1.2.0").told(Told.committed(20 * T));
        CheckResult result = check(store);
        assertEquals(List.of(Anomaly.Kind.LOST_COMMITTED_WRITE), kinds(result));
    }

    @Test
    void aMissingCommittedVersionIsReportedAgainstWhatTheClientWasTold() {
        correctHistory();
        StoreImage doctored = new StoreImage();
        for (Key key : h.consistentStore().keys()) {
            for (StoredVersion v : h.consistentStore().versionsOf(key).values()) {
                if (!key.equals(Key.parse("r02:b"))) {
                    doctored.add(key, v);
                }
            }
        }
        assertEquals(List.of(Anomaly.Kind.TOLD_COMMITTED_BUT_NOT_STORED), kinds(check(doctored)));
    }

    @Test
    void aScanThatMissesARowIsDetectedAndDisagreesWithTheGet() {
        correctHistory();
        // r01:a is absent after p2's delete at 6; r00:a holds p1's value. The scan drops r00.
        h.generic("p9", 9).read("r00:a", "p1.2.0").scan("r00", null, Map.of("r02:b", "p3.4.0"))
                .told(Told.committed(9 * T));
        assertEquals(List.of(Anomaly.Kind.SCAN_SKIPPED_ROWS, Anomaly.Kind.SCAN_GET_DISAGREEMENT),
                kinds(check(h.consistentStore())));
    }

    @Test
    void aScanReturningAnOlderValueIsAStaleRead() {
        correctHistory();
        h.generic("p9", 9).scan("r00", "r01", Map.of("r00:a", "p0.1.0")).told(Told.committed(9 * T));
        assertEquals(List.of(Anomaly.Kind.STALE_READ), kinds(check(h.consistentStore())));
    }

    @Test
    void aClientToldAbortedWhoseCommitIsStoredIsDetected() {
        correctHistory();
        Txn aborted = h.generic("p8", 8).write("r03:a", "p8.1.0").told(Told.of(Told.Kind.ABORTED, "INVALIDATED"));
        StoreImage store = h.consistentStore();
        // The commit record says committed: the retried put found its own earlier attempt and took it for a reader.
        store.addCommitRecord(aborted.start(), 9 * T);
        assertEquals(List.of(Anomaly.Kind.TOLD_NOT_COMMITTED_BUT_STORED), kinds(check(store)));
    }

    @Test
    void aFastPathWriteToldRefusedButStoredIsDetected() {
        correctHistory();
        h.add(new Txn("p8", 100, true, "check-and-mutate", 0, 0,
                List.of(new Op.Write(Key.parse("r03:b"), "p8.100.0")), Told.of(Told.Kind.NOT_APPLIED, ""), -1, false));
        StoreImage store = h.consistentStore();
        store.add(Key.parse("r03:b"), new StoredVersion(9 * T + 3, "p8.100.0", false, 9 * T + 3));
        assertEquals(List.of(Anomaly.Kind.TOLD_NOT_COMMITTED_BUT_STORED), kinds(check(store)));
    }

    @Test
    void aTransactionToldCommittedButInvalidatedIsDetected() {
        correctHistory();
        Txn committed = h.generic("p8", 8).write("r03:a", "p8.1.0").committedAt(9);
        StoreImage store = new StoreImage();
        StoreImage consistent = h.consistentStore();
        for (Key key : consistent.keys()) {
            for (StoredVersion v : consistent.versionsOf(key).values()) {
                store.add(key, v.version() == committed.start() ? new StoredVersion(v.version(), v.value(), false, 0)
                        : v);
            }
        }
        store.addCommitRecord(committed.start(), StoreImage.INVALIDATED);
        assertEquals(List.of(Anomaly.Kind.TOLD_COMMITTED_BUT_NOT_STORED), kinds(check(store)));
    }

    @Test
    void anIncrementAppliedTwiceLeavesAnUnexplainedVersion() {
        correctHistory();
        Key counter = Key.parse("r03:n");
        // The first attempt applied #1 at v1 but its reply was lost; HBase re-sent it, which applied #2 at v2, and
        // the client was told only that answer.
        long v1 = 9 * T + 1;
        long v2 = 9 * T + 2;
        h.add(new Txn("p8", 100, true, "increment", 0, v2, List.of(new Op.Read(counter, "#1"),
                new Op.Write(counter, "#2")), Told.committed(v2), -1, false));
        StoreImage store = h.consistentStore();
        store.add(counter, new StoredVersion(v1, "#1", false, v1));
        store.add(counter, new StoredVersion(v2, "#2", false, v2));
        List<Anomaly.Kind> kinds = kinds(check(store));
        assertTrue(kinds.contains(Anomaly.Kind.UNEXPLAINED_VERSION), kinds.toString());
    }

    @Test
    void anIncrementWhoseAnswerWasLostIsMatchedWithItsVersion() {
        correctHistory();
        Key counter = Key.parse("r03:n");
        long v1 = 9 * T + 1;
        h.add(new Txn("p8", 100, true, "increment", 0, 0, List.of(new Op.Write(counter, "*")),
                Told.of(Told.Kind.UNKNOWN, "timeout"), -1, false));
        StoreImage store = h.consistentStore();
        store.add(counter, new StoredVersion(v1, "#1", false, v1));
        h.generic("verify-1", 20).read("r03:n", "#1").told(Told.committed(20 * T));
        CheckResult result = check(store);
        assertEquals(List.of(), result.anomalies());
        assertEquals(5, result.committed());
    }

    @Test
    void aConditionalWriteOnAChangedRowIsDetected() {
        correctHistory();
        Key a = Key.parse("r03:a");
        long read = 8 * T;
        h.fastPathPut("p7", 8 * T + 1, "r03:b", "p7.1.0");
        h.add(new Txn("p8", 100, true, "conditional write", 0, read + 1, List.of(new Op.Read(a, null),
                new Op.Write(a, "p8.100.0")), Told.committed(8 * T + 2), read, false));
        List<Anomaly.Kind> kinds = kinds(check(h.consistentStore()));
        assertEquals(List.of(Anomaly.Kind.CONDITIONAL_WRITE_ON_CHANGED_ROW), kinds);
    }

    @Test
    void aReadOfAWriteCommittedAfterTheSnapshotIsDetected() {
        correctHistory();
        h.generic("p8", 8).write("r03:a", "p8.1.0").committedAt(10);
        h.generic("p9", 9).read("r03:a", "p8.1.0").told(Told.committed(9 * T));
        assertEquals(List.of(Anomaly.Kind.READ_FROM_THE_FUTURE), kinds(check(h.consistentStore())));
    }

    @Test
    void aSingleRegionCommitIsSettledAtTheVersionItsRegionMinted() {
        correctHistory();
        h.generic("p8", 8).read("r03:a", null).write("r03:a", "p8.1.0").write("r03:b", "p8.1.1")
                .told(Told.committed(8 * T + 1));
        h.generic("p9", 9).read("r03:a", "p8.1.0").read("r03:b", "p8.1.1").told(Told.committed(9 * T));
        CheckResult result = check(h.consistentStore());
        assertEquals(List.of(), result.anomalies());
        assertEquals(1, result.singleRegionCommits());
    }

    /**
     * The broken rule the checker must catch: a region that mints a single-region commit below its read clock (here
     * at 8T+1, after a reader at 9T read the row as absent) changes a snapshot that was already read.
     */
    @Test
    void aSingleRegionCommitMintedBelowAReadersSnapshotIsDetected() {
        correctHistory();
        h.generic("p9", 9).read("r03:a", null).told(Told.committed(9 * T));
        h.generic("p8", 8).write("r03:a", "p8.1.0").told(Told.committed(8 * T + 1));
        assertEquals(List.of(Anomaly.Kind.STALE_READ), kinds(check(h.consistentStore())));
    }

    /** A transaction begun lazily that committed write-only in its region learned its version as its start. */
    @Test
    void aWriteOnlyCommitOfATransactionBegunLazilyIsSettledAtItsVersion() {
        correctHistory();
        h.lazy("p8").write("r03:a", "p8.1.0").write("r03:b", "p8.1.1").startsAndCommitsAt(8 * T + 1);
        h.generic("p9", 9).read("r03:a", "p8.1.0").read("r03:b", "p8.1.1").told(Told.committed(9 * T));
        CheckResult result = check(h.consistentStore());
        assertEquals(List.of(), result.anomalies());
        assertEquals(1, result.singleRegionCommits());
    }

    /** The broken rule: a write-only commit minted below the snapshot of a reader that already read its row. */
    @Test
    void aWriteOnlyCommitMintedBelowAReadersSnapshotIsDetected() {
        correctHistory();
        h.generic("p9", 9).read("r03:a", null).told(Told.committed(9 * T));
        h.lazy("p8").write("r03:a", "p8.1.0").startsAndCommitsAt(8 * T + 1);
        assertEquals(List.of(Anomaly.Kind.STALE_READ), kinds(check(h.consistentStore())));
    }

    /**
     * A client killed during the write-only commit of a transaction begun lazily never learned its start: the checker
     * finds it where its values are stored, committed there, and checks the reads of it.
     */
    @Test
    void aWriteOnlyCommitWhoseClientDiedIsFoundWhereItsValuesAreStored() {
        correctHistory();
        Txn died = h.lazy("p8").write("r03:a", "p8.1.0").killedMidCommit();
        h.generic("p9", 9).read("r03:a", "p8.1.0").told(Told.committed(9 * T));
        StoreImage store = h.consistentStore();
        store.add(Histories.key("r03:a"), new StoredVersion(8 * T + 1, "p8.1.0", false, 8 * T + 1));
        CheckResult result = check(store);
        assertEquals(List.of(), result.anomalies());
        assertEquals(1, result.singleRegionCommits(), died.describe());
    }

    /**
     * A write-only commit is minted above its own manager's transactions, not above those of the client's other
     * managers: it reads nothing, so its place below the client's earlier commit is no session violation.
     */
    @Test
    void aWriteOnlyCommitBelowItsClientsEarlierCommitIsNoSessionViolation() {
        correctHistory();
        h.generic("p8", 8).write("r03:b", "p8.1.0").committedAt(9);
        h.lazy("p8").write("r03:a", "p8.2.0").startsAndCommitsAt(8 * T + 1);
        assertEquals(List.of(), check(h.consistentStore()).anomalies());
    }

    /** A read-modify-write begun lazily that committed in its region while the row still held what it read. */
    @Test
    void aReadModifyWriteCommittedInItsRegionOverTheValueItReadIsCorrect() {
        correctHistory();
        h.lazy("p8").read("r00:a", "p1.2.0").write("r00:a", "p8.1.0").startsAndCommitsAt(8 * T + 1);
        h.generic("p9", 9).read("r00:a", "p8.1.0").told(Told.committed(9 * T));
        assertEquals(List.of(), check(h.consistentStore()).anomalies());
    }

    /**
     * The broken rule: a read-modify-write begun lazily that committed in its region although the row it read was
     * written after its read (a region that skipped the check of the version read) loses that write.
     */
    @Test
    void aReadModifyWriteCommittedOverAWriteAfterItsReadIsDetected() {
        correctHistory();
        h.generic("p9", 8).write("r00:a", "p9.1.0").committedAt(9);
        h.lazy("p8").read("r00:a", "p1.2.0").write("r00:a", "p8.1.0").startsAndCommitsAt(9 * T + 1);
        assertEquals(List.of(Anomaly.Kind.STALE_READ), kinds(check(h.consistentStore())));
    }

    /**
     * A read-modify-write begun lazily is placed at the version its region minted, which may be below its client's
     * earlier commit of another row: it read only its own row, whose latest state holds every commit of the client.
     */
    @Test
    void aReadModifyWriteBelowItsClientsEarlierCommitOfAnotherRowIsNoSessionViolation() {
        correctHistory();
        h.generic("p8", 8).write("r03:b", "p8.1.0").committedAt(9);
        h.lazy("p8").read("r00:a", "p1.2.0").write("r00:a", "p8.2.0").startsAndCommitsAt(8 * T + 1);
        assertEquals(List.of(), check(h.consistentStore()).anomalies());
    }

    /** One that died before anything of it was stored is left out: nobody can have read it. */
    @Test
    void aLazilyBegunTransactionThatLeftNothingIsLeftOut() {
        correctHistory();
        long before = check(h.consistentStore()).transactions();
        h.lazy("p8").write("r03:a", "p8.1.0").killedMidCommit();
        CheckResult result = check(h.consistentStore());
        assertEquals(List.of(), result.anomalies());
        assertEquals(before, result.transactions());
    }

    @Test
    void aFastPathReadThatMixesTwoRowStatesIsDetected() {
        correctHistory();
        h.generic("p8", 8).write("r03:a", "p8.1.0").write("r03:b", "p8.1.1").committedAt(9);
        h.fastPathPut("p7", 9 * T + 1, "r03:a", "p7.1.0");
        // Sees the fast-path write's a, but b from before p8.
        h.fastPathGet("p6", 9 * T + 1, Map.of("r03:a", "p7.1.0", "r03:b", "-", "r03:n", "-"));
        assertEquals(List.of(Anomaly.Kind.STALE_READ), kinds(check(h.consistentStore())));
    }

    @Test
    void aWriterNobodyCanSettleLeavesReadsUncheckedInsteadOfFlagged() {
        correctHistory();
        // Killed mid-commit; compaction collected its version under a newer one committed below the low watermark.
        h.generic("c1", 8).write("r03:a", "c1.1.0").told(Told.NOTHING);
        h.generic("p8", 9).write("r03:a", "p8.1.0").committedAt(10);
        h.generic("p9", 9).read("r03:a", "c1.1.0").told(Told.committed(9 * T));
        StoreImage store = h.consistentStore();
        store.lowWatermark(11 * T);
        CheckResult result = check(store);
        assertEquals(List.of(), result.anomalies());
        assertTrue(result.readsUnchecked() >= 1);
    }

    @Test
    void aWriterKilledAfterItsCommitRecordCountsAsCommitted() {
        correctHistory();
        Txn killed = h.generic("c1", 8).write("r03:a", "c1.1.0").told(Told.NOTHING);
        StoreImage store = h.consistentStore();
        store.add(Key.parse("r03:a"), new StoredVersion(killed.start(), "c1.1.0", false, 0));
        store.addCommitRecord(killed.start(), 9 * T);
        h.generic("verify-1", 20).read("r03:a", "c1.1.0").told(Told.committed(20 * T));
        assertEquals(List.of(), check(store).anomalies());
    }

    @Test
    void aDeletionThatCompactionCollectedIsNeitherMissingNorAStaleFastPathRead() {
        h.generic("p0", 1).write("r01:a", "p0.1.0").committedAt(2);
        h.fastPathPut("p1", 2 * T + 1, "r01:b", "p1.1.0");
        h.fastPathPut("p1", 6 * T + 1, "r01:a", null);
        // With the low watermark above both, a major compaction drops r01:a's deletion and the value under it. A
        // fast-path get then reports the row's newest remaining commit (r01:b's), which is older than the delete.
        StoreImage store = new StoreImage();
        store.add(Key.parse("r01:b"), new StoredVersion(2 * T + 1, "p1.1.0", false, 2 * T + 1));
        store.lowWatermark(7 * T);
        h.fastPathGet("verify-2", 2 * T + 1, Map.of("r01:a", "-", "r01:b", "p1.1.0", "r01:n", "-"));
        assertEquals(List.of(), check(store).anomalies());
    }

    @Test
    void aStoreImageRoundTripsThroughItsFile(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws java.io.IOException {
        correctHistory();
        StoreImage store = h.consistentStore();
        store.addCommitRecord(99 * T, StoreImage.INVALIDATED);
        store.addCommitRecord(98 * T, 99 * T);
        store.lowWatermark(5 * T);
        java.nio.file.Path file = dir.resolve(StoreImageFile.NAME);
        StoreImageFile.write(store, file);
        StoreImage read = StoreImageFile.read(file);
        assertEquals(5 * T, read.lowWatermark());
        assertEquals(StoreImage.INVALIDATED, read.commitRecord(99 * T));
        assertEquals(99 * T, read.commitRecord(98 * T));
        for (Key key : store.keys()) {
            assertEquals(store.versionsOf(key), read.versionsOf(key));
        }
        assertEquals(check(store).anomalies(), check(read).anomalies());
    }

    @Test
    void aCommittedWriteWhoseDataCellsWereDeletedUnderItsShadowCellsIsDetected() {
        correctHistory();
        Txn halfGone = h.generic("p8", 8).write("r03:a", "p8.1.0").committedAt(9);
        StoreImage store = h.consistentStore();
        // What a sweeper that rolled back a still-running writer leaves once the writer committed anyway.
        store.add(Key.parse("r03:a"), new StoredVersion(halfGone.start(), null, false, 9 * T));
        h.generic("verify-1", 20).read("r03:a", null).told(Told.committed(20 * T));
        assertEquals(List.of(Anomaly.Kind.INCONSISTENT_STORE, Anomaly.Kind.LOST_COMMITTED_WRITE),
                kinds(check(store)));
    }

    @Test
    void aClientWhoseNextTransactionBeginsBelowItsLastCommitIsDetected() {
        correctHistory();
        // p0 committed at 2T; a TSO that handed out a start below it would hide p0's own write from p0.
        h.generic("p0", 1).read("r00:a", null).told(Told.committed(T));
        assertEquals(List.of(Anomaly.Kind.SESSION_ORDER_VIOLATED), kinds(check(h.consistentStore())));
    }

    @Test
    void aFastPathReadBelowItsClientsOwnWriteToTheRowIsDetected() {
        correctHistory();
        // p3 wrote r02:b at 6T+5; its later read of r02 reports an older version, consistently without the write.
        h.fastPathGet("p3", 6 * T + 1, Map.of("r02:a", "-", "r02:b", "-", "r02:n", "-"));
        assertEquals(List.of(Anomaly.Kind.SESSION_ORDER_VIOLATED), kinds(check(h.consistentStore())));
    }
}
