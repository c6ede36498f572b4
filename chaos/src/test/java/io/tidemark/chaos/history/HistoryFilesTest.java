package io.tidemark.chaos.history;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** History files written by several clients are merged back into the transactions they recorded. */
class HistoryFilesTest {

    @TempDir
    Path dir;

    @Test
    void transactionsOfSeveralClientsRoundTripThroughTheirFiles() throws IOException {
        Key a = Key.parse("r01:a");
        Key n = Key.parse("r02:n");
        try (HistoryLog p0 = new HistoryLog(HistoryFiles.fileOf(dir, "p0"), "p0");
             HistoryLog c1 = new HistoryLog(HistoryFiles.fileOf(dir, "c1"), "c1")) {
            HistoryLog.Recorder tx = p0.generic(1, 8192, 1_000_000L);
            tx.read(a, null);
            tx.write(a, "p0.1.0");
            Map<Key, String> seen = new TreeMap<>();
            seen.put(a, "p0.1.0");
            tx.scan("r00", null, seen);
            tx.committing();
            tx.told(Told.of(Told.Kind.ABORTED, "CONFLICT: another\ttransaction"));
            HistoryLog.Recorder inc = c1.fastPath(1, "increment");
            inc.write(n, HistoryLines.NOT_YET_KNOWN);
            inc.read(n, "#4");
            inc.write(n, "#5");
            inc.told(Told.committed(8193));
            c1.fastPath(2, "put").write(a, "c1.2.0");
        }
        List<Txn> txns = HistoryFiles.read(dir);
        assertEquals(3, txns.size());
        Txn inc = txns.get(0);
        assertEquals("c1/1", inc.id());
        assertEquals(Map.of(n, "#5"), inc.writes());
        assertEquals(8193, inc.readBound());
        Txn killed = txns.get(1);
        assertEquals(Told.NOTHING, killed.told());
        assertEquals(Map.of(a, "c1.2.0"), killed.writes());
        Txn generic = txns.get(2);
        assertEquals(8192, generic.readBound());
        assertEquals(Told.Kind.ABORTED, generic.told().kind());
        assertEquals(List.of(new Op.Read(a, null), new Op.Write(a, "p0.1.0"), new Op.Scan("r00", null,
                Map.of(a, "p0.1.0"))), generic.ops());
        assertEquals(1_000_000L, generic.timing().beginAsked());
        assertTrue(generic.timing().beginAnswered() > generic.timing().beginAsked());
        assertTrue(generic.timing().commitAnswered() >= generic.timing().commitAsked());
        assertTrue(generic.timing().commitAsked() >= generic.timing().beginAnswered());
    }

    /** Histories written before clients recorded when they asked the TSO still read, their times unknown. */
    @Test
    void linesWithoutTimesReadAsUnknownTiming() throws IOException {
        Files.writeString(HistoryFiles.fileOf(dir, "p1"), String.join("\n", "T\tp1\t1\tG\t4096",
                "W\tp1\t1\tr00:a\tp1.1.0a", "C\tp1\t1", "O\tp1\t1\tCOMMITTED\t8192\t", ""),
                StandardCharsets.UTF_8);
        Txn txn = HistoryFiles.read(dir).get(0);
        assertEquals(Told.committed(8192), txn.told());
        assertEquals(Timing.UNKNOWN, txn.timing());
    }

    @Test
    void theUnfinishedLastLineOfAKilledClientIsIgnored() throws IOException {
        Path file = HistoryFiles.fileOf(dir, "c2");
        try (HistoryLog c2 = new HistoryLog(file, "c2")) {
            c2.generic(1, 4096, Timing.nowMicros()).write(Key.parse("r00:b"), "c2.1.0");
        }
        Files.writeString(file, "W\tc2\t1\tr00:a\tc2.1", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        List<Txn> txns = HistoryFiles.read(dir);
        assertEquals(1, txns.size());
        assertEquals(Map.of(Key.parse("r00:b"), "c2.1.0"), txns.get(0).writes());
    }
}
