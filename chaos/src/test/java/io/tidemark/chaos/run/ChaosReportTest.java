package io.tidemark.chaos.run;

import io.tidemark.chaos.check.Anomaly;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A report explains the first anomaly of every kind before a second one of any kind. */
class ChaosReportTest {

    @Test
    void everyKindIsExplainedOnceBeforeAnyIsExplainedTwice() {
        Anomaly scan1 = new Anomaly(Anomaly.Kind.SCAN_SKIPPED_ROWS, "1");
        Anomaly scan2 = new Anomaly(Anomaly.Kind.SCAN_SKIPPED_ROWS, "2");
        Anomaly stale = new Anomaly(Anomaly.Kind.STALE_READ, "3");
        Anomaly told = new Anomaly(Anomaly.Kind.TOLD_NOT_COMMITTED_BUT_STORED, "4");
        assertEquals(List.of(scan1, stale, told), ChaosReport.examples(List.of(scan1, scan2, stale, told), 3));
        assertEquals(List.of(scan1, stale, told, scan2), ChaosReport.examples(List.of(scan1, scan2, stale, told),
                5));
    }
}
