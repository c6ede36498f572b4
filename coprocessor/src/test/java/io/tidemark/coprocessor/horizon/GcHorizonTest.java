package io.tidemark.coprocessor.horizon;

import io.tidemark.committable.InMemoryCommitTable;
import io.tidemark.gc.SnapshotTooOldException;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class GcHorizonTest {

    private final InMemoryCommitTable commitTable = new InMemoryCommitTable();

    @Test
    void aSnapshotAtOrBelowWhatCompactionCollectedWithIsRefused() throws IOException {
        GcHorizon horizon = new GcHorizon("region a");
        horizon.check(100, commitTable);
        horizon.raise(100);
        horizon.raise(50);
        SnapshotTooOldException refused = assertThrows(SnapshotTooOldException.class,
                () -> horizon.check(100, commitTable));
        assertTrue(refused.getMessage().contains("snapshot 100") && refused.getMessage().contains("new transaction"),
                refused.getMessage());
        assertDoesNotThrow(() -> horizon.check(101, commitTable));
    }

    @Test
    void anOpenedRegionStartsFromThePersistedLowWatermarkReadOnceAtItsFirstCheck() throws IOException {
        commitTable.raiseLowWatermark(200);
        GcHorizon horizon = new GcHorizon("region b");
        assertThrows(SnapshotTooOldException.class, () -> horizon.check(200, commitTable));
        commitTable.raiseLowWatermark(300);
        commitTable.failNext(1, InMemoryCommitTable.Fault.UNAVAILABLE);
        assertDoesNotThrow(() -> horizon.check(250, commitTable), "read once: neither the new value nor the outage");
    }
}
