package io.tidemark.coprocessor.fastpath;

import io.tidemark.fastpath.FastPathUnavailableException;
import io.tidemark.timestamp.Timestamps;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The region clock alone (the mini-cluster tests cover it inside a region server). */
class RegionClockTest {

    private static final long T = 100 * Timestamps.TSO_STEP;

    @Test
    void refusesToMintUntilItLearnsAFreshTimestamp() throws Exception {
        RegionClock clock = new RegionClock();
        clock.observeRead(T, 1000);
        FastPathUnavailableException refusal = assertThrows(FastPathUnavailableException.class, () -> clock.mint(0));
        assertEquals(clock.incarnation(), refusal.incarnation(), "the refusal names the clock's incarnation");
        assertEquals(clock.incarnation(), new FastPathUnavailableException("remote: " + refusal.getMessage()
                + "\n\tat some.Frame").incarnation(), "the incarnation survives HBase re-creating the exception");
        assertTrue(clock.acceptFreshTimestamp(T + Timestamps.TSO_STEP, refusal.incarnation()));
        assertEquals(T + Timestamps.TSO_STEP + 1, clock.mint(0));
    }

    @Test
    void ignoresAFreshTimestampAnsweringAnotherIncarnationsRefusal() throws Exception {
        RegionClock before = new RegionClock();
        FastPathUnavailableException earlier = assertThrows(FastPathUnavailableException.class, () -> before.mint(0));
        RegionClock reopened = new RegionClock();
        assertNotEquals(before.incarnation(), reopened.incarnation(), "every opening has its own incarnation");
        reopened.observeRead(T + Timestamps.TSO_STEP, 1000);
        assertFalse(reopened.acceptFreshTimestamp(T, earlier.incarnation()),
                "a timestamp obtained after the earlier incarnation's refusal proves nothing about later readers");
        FastPathUnavailableException again = assertThrows(FastPathUnavailableException.class,
                () -> reopened.mint(0));
        assertEquals(reopened.incarnation(), again.incarnation());
    }

    @Test
    void mintsAboveTheFloorAndTheLargestSnapshotThatRead() throws Exception {
        RegionClock clock = new RegionClock();
        clock.acceptFreshTimestamp(T, clock.incarnation());
        long first = clock.mint(5);
        assertEquals(T + 1, first);
        clock.release(first);
        long v = clock.mint(T + 7);
        assertEquals(T + 8, v);
        clock.release(v);
        clock.observeRead(T + Timestamps.TSO_STEP, 1000);
        assertEquals(T + Timestamps.TSO_STEP + 1, clock.mint(T + 9));
    }

    @Test
    void refusesAVersionThatWouldReachTheCheckpointRange() throws Exception {
        RegionClock clock = new RegionClock();
        clock.acceptFreshTimestamp(T, clock.incarnation());
        assertEquals(T + Timestamps.MAX_FAST_PATH_LOW, clock.mint(T + Timestamps.MAX_FAST_PATH_LOW - 1));
        FastPathUnavailableException e = assertThrows(FastPathUnavailableException.class,
                () -> clock.mint(T + Timestamps.MAX_FAST_PATH_LOW));
        assertTrue(e.getMessage().contains("fall back"), e.getMessage());
    }

    @Test
    void aReadWaitsForAVersionMintedBelowItsSnapshotUntilItIsWritten() throws Exception {
        RegionClock clock = new RegionClock();
        clock.acceptFreshTimestamp(T, clock.incarnation());
        long inFlight = clock.mint(0);
        CompletableFuture<Void> read = CompletableFuture.runAsync(() -> {
            try {
                clock.observeRead(T + Timestamps.TSO_STEP, 10_000);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        assertThrows(java.util.concurrent.TimeoutException.class, () -> read.get(200, TimeUnit.MILLISECONDS));
        assertFalse(read.isDone(), "the read waits while the version below its snapshot is being written");
        clock.release(inFlight);
        read.get(10, TimeUnit.SECONDS);
    }

    @Test
    void aReadDoesNotWaitForVersionsAboveItsSnapshot() throws Exception {
        RegionClock clock = new RegionClock();
        clock.acceptFreshTimestamp(T, clock.incarnation());
        clock.mint(T + Timestamps.TSO_STEP + 5);
        clock.observeRead(T + Timestamps.TSO_STEP, 10_000);
    }

    @Test
    void aReadThatWaitsTooLongFailsWithAClearError() throws Exception {
        RegionClock clock = new RegionClock();
        clock.acceptFreshTimestamp(T, clock.incarnation());
        clock.mint(0);
        IOException e = assertThrows(IOException.class, () -> clock.observeRead(T + Timestamps.TSO_STEP, 50));
        assertTrue(e.getMessage().contains("retry the read"), e.getMessage());
    }

    @Test
    void theRegionWideClockCoversReadsAndMints() throws Exception {
        RegionClock clock = new RegionClock();
        clock.acceptFreshTimestamp(T, clock.incarnation());
        long v = clock.mint(T + 40);
        assertEquals(v, clock.regionWide());
        clock.release(v);
        clock.observeRead(T + 2 * Timestamps.TSO_STEP, 10);
        assertEquals(T + 2 * Timestamps.TSO_STEP, clock.regionWide());
    }
}
