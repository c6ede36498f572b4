package io.tidemark.bench.txn;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The phases of committed transactions are averaged per phase; aborts and the warm-up are left out. No HBase. */
class TxStatsTest {

    private static final double PRECISION_MS = 0.01;

    private static long ms(double millis) {
        return (long) (millis * TimeUnit.MILLISECONDS.toNanos(1));
    }

    @Test
    void commitIsSplitIntoTsoCommitRecordAndPostCommit() {
        TxStats stats = new TxStats();
        stats.record(new TxOutcome(true, ms(0.2), ms(0.6), ms(2.0), new CommitPhases(ms(0.2), ms(1.0), ms(0.7))));
        stats.record(new TxOutcome(true, ms(0.2), ms(0.6), ms(4.0), new CommitPhases(ms(0.4), ms(3.0), ms(0.5))));

        TxMeasurement m = stats.snapshot("write", 1.0);

        assertEquals(2, m.commits());
        assertEquals(3.0, m.meanCommitMs(), PRECISION_MS);
        assertEquals(0.3, m.meanCommitTsoMs(), PRECISION_MS);
        assertEquals(2.0, m.meanCommitRecordMs(), PRECISION_MS);
        assertEquals(0.6, m.meanPostCommitMs(), PRECISION_MS);
    }

    @Test
    void unsplitCommitsCountAsZeroInEveryPhase() {
        TxStats stats = new TxStats();
        stats.record(new TxOutcome(true, ms(0.2), ms(0.6), ms(2.0), new CommitPhases(ms(0.4), ms(1.0), ms(0.4))));
        stats.record(new TxOutcome(true, 0, ms(0.5), 0));

        TxMeasurement m = stats.snapshot("mixed", 1.0);

        assertEquals(0.1, m.meanBeginMs(), PRECISION_MS);
        assertEquals(0.2, m.meanCommitTsoMs(), PRECISION_MS);
        assertEquals(0.5, m.meanCommitRecordMs(), PRECISION_MS);
        assertEquals(0.2, m.meanPostCommitMs(), PRECISION_MS);
    }

    @Test
    void abortsAndTheWarmUpAreNotAveraged() {
        TxStats stats = new TxStats();
        stats.record(new TxOutcome(true, ms(9), ms(9), ms(9), new CommitPhases(ms(3), ms(3), ms(3))));
        stats.reset();
        stats.record(new TxOutcome(false, ms(5), ms(5), ms(5), new CommitPhases(ms(5), 0, 0)));
        stats.record(new TxOutcome(true, ms(0.1), ms(0.5), ms(1.5), new CommitPhases(ms(0.3), ms(0.8), ms(0.3))));

        TxMeasurement m = stats.snapshot("write", 1.0);

        assertEquals(1, m.commits());
        assertEquals(1, m.aborts());
        assertEquals(0.3, m.meanCommitTsoMs(), PRECISION_MS);
        assertEquals(0.8, m.meanCommitRecordMs(), PRECISION_MS);
    }

    @Test
    void negativePhaseTimesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new CommitPhases(-1, 0, 0));
    }
}
