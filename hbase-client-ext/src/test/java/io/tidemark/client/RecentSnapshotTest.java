package io.tidemark.client;

import io.tidemark.client.tso.TsoIncarnation;
import io.tidemark.protocol.CommitMode;
import io.tidemark.writeset.ConflictLevel;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RecentSnapshotTest {

    private static final TsoIncarnation INCARNATION =
            new TsoIncarnation(CommitMode.LOW_LATENCY, ConflictLevel.CELL, 0, 1000);
    private static final long MS = 1_000_000L;

    private final RecentSnapshot recent = new RecentSnapshot();

    @Test
    void nothingIsReusedBeforeASafeTimestampIsKnown() {
        assertNull(recent.within(Staleness.atMost(Duration.ofHours(1)), 0));
    }

    @Test
    void theNewestTimestampWinsEvenWhenOfferedFirst() {
        recent.offer(8192, INCARNATION, 10 * MS);
        recent.offer(4096, INCARNATION, 20 * MS);
        RecentSnapshot.Entry entry = recent.within(Staleness.atMost(Duration.ofSeconds(1)), 30 * MS);
        assertEquals(8192, entry.timestamp);
        assertEquals(10 * MS, entry.obtainedNanos);
        assertSame(INCARNATION, entry.incarnation);
    }

    @Test
    void aTimestampOlderThanTheBoundIsNotReused() {
        recent.offer(4096, INCARNATION, 0);
        assertEquals(4096, recent.within(Staleness.atMost(Duration.ofMillis(10)), 10 * MS).timestamp);
        assertNull(recent.within(Staleness.atMost(Duration.ofMillis(10)), 10 * MS + 1));
    }

    @Test
    void noStalenessNeverReusesATimestamp() {
        recent.offer(4096, INCARNATION, 0);
        assertNull(recent.within(Staleness.none(), 0));
        assertTrue(Staleness.atMost(Duration.ZERO).isNone());
    }

    @Test
    void aNegativeBoundIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Staleness.atMost(Duration.ofMillis(-1)));
    }
}
