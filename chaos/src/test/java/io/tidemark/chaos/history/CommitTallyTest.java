package io.tidemark.chaos.history;

import io.tidemark.timestamp.Timestamps;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What clients were told committed is counted by kind from their history files, a line once it is whole. */
class CommitTallyTest {

    @TempDir
    Path dir;

    private static final Key A = Key.parse("r01:a");

    @Test
    void commitsAreCountedByKindAsClientsRecordThem() throws IOException {
        CommitTally tally = new CommitTally(dir);
        try (HistoryLog p0 = new HistoryLog(HistoryFiles.fileOf(dir, "p0"), "p0");
             HistoryLog c1 = new HistoryLog(HistoryFiles.fileOf(dir, "c1"), "c1")) {
            HistoryLog.Recorder viaTso = p0.generic(1, 4 * Timestamps.TSO_STEP, 0);
            viaTso.write(A, "p0.1.0a");
            viaTso.told(Told.committed(5 * Timestamps.TSO_STEP));
            HistoryLog.Recorder inRegion = p0.generic(2, 6 * Timestamps.TSO_STEP, 0);
            inRegion.write(A, "p0.2.0a");
            inRegion.told(Told.committed(6 * Timestamps.TSO_STEP + 1));
            HistoryLog.Recorder aborted = p0.generic(3, 7 * Timestamps.TSO_STEP, 0);
            aborted.told(Told.of(Told.Kind.ABORTED, "CONFLICT"));
            HistoryLog.Recorder put = c1.fastPath(1, "put");
            put.write(A, "c1.1.0a");
            put.told(Told.committed(8 * Timestamps.TSO_STEP + 1));
            assertEquals(Map.of(CommitTally.Kind.GENERIC, 1, CommitTally.Kind.SINGLE_REGION, 1,
                    CommitTally.Kind.FAST_PATH, 1), tally.update());

            HistoryLog.Recorder again = c1.generic(2, 9 * Timestamps.TSO_STEP, 0);
            again.told(Told.committed(10 * Timestamps.TSO_STEP));
            assertEquals(2, tally.update().get(CommitTally.Kind.GENERIC), "lines added later are counted once");
        }
    }

    @Test
    void aHalfWrittenLineIsCountedOnceItIsWhole() throws IOException {
        Path file = HistoryFiles.fileOf(dir, "c2");
        String begin = HistoryLines.fastPath("c2", 1, "put") + "\n";
        String told = HistoryLines.told("c2", 1, Told.committed(3 * Timestamps.TSO_STEP + 1), 0) + "\n";
        Files.writeString(file, begin + told.substring(0, 5), StandardCharsets.UTF_8);
        CommitTally tally = new CommitTally(dir);
        assertEquals(0, tally.update().get(CommitTally.Kind.FAST_PATH));
        Files.writeString(file, told.substring(5), StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        assertEquals(1, tally.update().get(CommitTally.Kind.FAST_PATH));
    }
}
