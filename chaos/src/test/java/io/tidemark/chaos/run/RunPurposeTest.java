package io.tidemark.chaos.run;

import io.tidemark.chaos.fault.FaultInjection;
import io.tidemark.chaos.history.HistoryFiles;
import io.tidemark.chaos.history.HistoryLog;
import io.tidemark.chaos.history.Key;
import io.tidemark.chaos.history.Told;
import io.tidemark.chaos.history.CommitTally;
import io.tidemark.chaos.workload.OperationMix;
import io.tidemark.timestamp.Timestamps;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A run is done once every fault was injected and, after the last one, commits of each kind its scenario has. */
class RunPurposeTest {

    private static final Key A = Key.parse("r01:a");

    /** Faults still to come, as the test says. */
    private static final class Pending implements FaultInjection {
        final List<String> missing = new ArrayList<>(List.of("move a region"));

        @Override
        public void prepare() {
        }

        @Override
        public void start() {
        }

        @Override
        public int injected() {
            return 0;
        }

        @Override
        public Map<String, Integer> byKind() {
            return Map.of();
        }

        @Override
        public List<String> notYetInjected() {
            return List.copyOf(missing);
        }

        @Override
        public boolean holdsEnd() {
            return !missing.isEmpty();
        }

        @Override
        public void close() {
        }
    }

    @Test
    void onlyCommitsOfEachKindAfterTheLastFaultFulfilARun(@TempDir Path dir) throws Exception {
        Pending faults = new Pending();
        RunPurpose purpose = new RunPurpose(faults, new CommitTally(dir), new OperationMix(0.5, 0, 0), 2);
        try (HistoryLog log = new HistoryLog(HistoryFiles.fileOf(dir, "p0"), "p0")) {
            long seq = 0;
            for (int i = 0; i < 3; i++) {
                commitGeneric(log, ++seq, false);
                commitGeneric(log, ++seq, true);
                commitFastPath(log, ++seq);
            }
            assertFalse(purpose.fulfilled(), "commits before the last fault do not count");
            assertTrue(purpose.missing().contains("move a region"), purpose.missing());

            faults.missing.clear();
            assertFalse(purpose.fulfilled());
            commitGeneric(log, ++seq, false);
            commitGeneric(log, ++seq, false);
            commitFastPath(log, ++seq);
            assertFalse(purpose.fulfilled());
            assertEquals("0 of 1 single-region commits after the last fault; 1 of 2 fast-path writes after the last"
                    + " fault", purpose.missing());
            commitFastPath(log, ++seq);
            commitGeneric(log, ++seq, true);
            assertTrue(purpose.fulfilled(), purpose.missing());
        }
    }

    @Test
    void aScenarioWithoutTheFastPathWaitsForNoFastPathWrite() {
        assertEquals(Set.of(CommitTally.Kind.GENERIC, CommitTally.Kind.SINGLE_REGION),
                RunPurpose.kindsOf(new OperationMix(0, 0.05, 0.3)));
    }

    private static void commitGeneric(HistoryLog log, long seq, boolean inRegion) {
        long start = seq * 4 * Timestamps.TSO_STEP;
        HistoryLog.Recorder tx = log.generic(seq, start, 0);
        tx.write(A, "p0." + seq + ".0a");
        tx.told(Told.committed(inRegion ? start + 1 : start + Timestamps.TSO_STEP));
    }

    private static void commitFastPath(HistoryLog log, long seq) {
        HistoryLog.Recorder put = log.fastPath(seq, "put");
        put.write(A, "p0." + seq + ".0a");
        put.told(Told.committed(seq * 4 * Timestamps.TSO_STEP + 1));
    }
}
