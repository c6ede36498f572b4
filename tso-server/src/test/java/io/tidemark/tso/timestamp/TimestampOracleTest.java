package io.tidemark.tso.timestamp;

import io.tidemark.timestamp.Timestamps;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TimestampOracleTest {

    private static final Consumer<String> IGNORE_LOSS = reason -> { };
    /** A wall clock at 0: the epoch is the persisted bound, as if HBase had stamped nothing yet. */
    private static final LongSupplier STOPPED_CLOCK = () -> 0L;
    /** 2023-11-14, a wall-clock time in milliseconds such as HBase stamps cells with. */
    private static final long NOW_MILLIS = 1_700_000_000_000L;

    @Test
    void timestampsAreStrictlyIncreasingTsoTimestampsAboveTheEpoch() throws IOException {
        TimestampOracle oracle = TimestampOracle.start(new InMemoryTimestampStorage(), Runnable::run, 10, STOPPED_CLOCK, IGNORE_LOSS);
        long previous = oracle.epoch();
        for (int i = 0; i < 1000; i++) {
            long ts = oracle.next();
            assertTrue(Timestamps.isTsoTimestamp(ts), "not a TSO timestamp: " + ts);
            assertTrue(ts > previous, ts + " does not follow " + previous);
            previous = ts;
        }
    }

    @Test
    void blocksAreClaimedAheadAndNeverExceeded() throws IOException {
        InMemoryTimestampStorage storage = new InMemoryTimestampStorage();
        TimestampOracle oracle = TimestampOracle.start(storage, Runnable::run, 4, STOPPED_CLOCK, IGNORE_LOSS);
        assertEquals(4 * Timestamps.TSO_STEP, storage.readBound());
        for (int i = 0; i < 100; i++) {
            long ts = oracle.next();
            assertTrue(ts <= storage.readBound(), ts + " handed out above the persisted bound " + storage.readBound());
        }
        assertTrue(storage.readBound() >= 100 * Timestamps.TSO_STEP);
    }

    @Test
    void singleTimestampBlocksStillWork() throws IOException {
        ExecutorService extender = Executors.newSingleThreadExecutor();
        try {
            TimestampOracle oracle = TimestampOracle.start(new InMemoryTimestampStorage(), extender, 1, STOPPED_CLOCK, IGNORE_LOSS);
            for (int i = 1; i <= 50; i++) {
                assertEquals(i * Timestamps.TSO_STEP, oracle.next());
            }
        } finally {
            extender.shutdownNow();
        }
    }

    @Test
    void restartedOracleStartsAboveEverythingHandedOutBefore() throws IOException {
        InMemoryTimestampStorage storage = new InMemoryTimestampStorage();
        TimestampOracle first = TimestampOracle.start(storage, Runnable::run, 8, STOPPED_CLOCK, IGNORE_LOSS);
        long last = 0;
        for (int i = 0; i < 21; i++) {
            last = first.next();
        }
        TimestampOracle second = TimestampOracle.start(storage, Runnable::run, 8, STOPPED_CLOCK, IGNORE_LOSS);
        assertTrue(second.epoch() >= last, "epoch " + second.epoch() + " below old timestamp " + last);
        assertTrue(second.next() > last);
    }

    @Test
    void oracleThatLostItsBoundToAnotherTsoRefusesTimestampsForGoodAndTellsItsOwnerOnce() throws IOException {
        InMemoryTimestampStorage storage = new InMemoryTimestampStorage();
        List<String> losses = new ArrayList<>();
        TimestampOracle loser = TimestampOracle.start(storage, Runnable::run, 1, STOPPED_CLOCK, losses::add);
        TimestampOracle winner = TimestampOracle.start(storage, Runnable::run, 1, STOPPED_CLOCK, IGNORE_LOSS);
        long lastOfLoser = loser.next();
        assertTrue(lastOfLoser <= winner.epoch(), "the loser may only use the block it owned");
        assertThrows(TimestampUnavailableException.class, loser::next);
        assertThrows(TimestampUnavailableException.class, loser::next);
        assertEquals(1, losses.size(), "the owner is told once: " + losses);
        assertTrue(losses.get(0).contains("lost its timestamp bound"), losses.get(0));
        assertTrue(winner.next() > lastOfLoser);
    }

    /** Issue 9: a failed background claim used to fail the next request although the block still had room. */
    @Test
    void backgroundClaimFailureWithRoomLeftDoesNotFailRequests() throws IOException {
        FaultyTimestampStorage storage = new FaultyTimestampStorage();
        List<String> losses = new ArrayList<>();
        TimestampOracle oracle = TimestampOracle.start(storage, Runnable::run, 100, STOPPED_CLOCK, losses::add);
        storage.failNextClaims(1);
        long previous = oracle.epoch();
        // The background claim starts (and fails) once half of the block is used; the rest of the block still serves.
        for (int i = 0; i < 100; i++) {
            long ts = oracle.next();
            assertTrue(ts > previous);
            previous = ts;
        }
        assertEquals(oracle.epoch() + 100 * Timestamps.TSO_STEP, previous, "the whole first block was handed out");
        assertTrue(oracle.next() > previous, "the claim is retried and the next block serves");
        assertTrue(losses.isEmpty(), "a storage failure is not a lost bound: " + losses);
    }

    @Test
    void exhaustedBlockWithFailingStorageFailsOnlyThatRequest() throws IOException {
        FaultyTimestampStorage storage = new FaultyTimestampStorage();
        TimestampOracle oracle = TimestampOracle.start(storage, Runnable::run, 2, STOPPED_CLOCK, IGNORE_LOSS);
        oracle.next();
        storage.failNextClaims(2);
        oracle.next();
        assertThrows(TimestampUnavailableException.class, oracle::next, "nothing left and no claim possible");
        assertTrue(oracle.next() > oracle.epoch(), "serves again once the storage answers");
    }

    @Test
    void startReadsTheBoundAgainWhenThePreviousTsosLastClaimRaced() throws IOException {
        FaultyTimestampStorage storage = new FaultyTimestampStorage();
        TimestampOracle previous = TimestampOracle.start(storage, Runnable::run, 10, STOPPED_CLOCK, IGNORE_LOSS);
        storage.raceNextClaim(10 * Timestamps.TSO_STEP);
        TimestampOracle next = TimestampOracle.start(storage, Runnable::run, 10, STOPPED_CLOCK, IGNORE_LOSS);
        assertEquals(20 * Timestamps.TSO_STEP, next.epoch(), "the epoch is above the racing claim");
        assertTrue(next.next() > 20 * Timestamps.TSO_STEP);
        assertThrows(TimestampUnavailableException.class, () -> {
            for (int i = 0; i < 20; i++) {
                previous.next();
            }
        }, "the previous TSO cannot claim again");
    }

    @Test
    void epochIsTheWallClockFloorWhenThePersistedBoundIsBelowIt() throws IOException {
        InMemoryTimestampStorage storage = new InMemoryTimestampStorage();
        TimestampOracle oracle = TimestampOracle.start(storage, Runnable::run, 4, () -> NOW_MILLIS, IGNORE_LOSS);
        assertEquals(Timestamps.wallClockFloor(NOW_MILLIS), oracle.epoch());
        long first = oracle.next();
        assertEquals(oracle.epoch() + Timestamps.TSO_STEP, first);
        assertTrue(first > NOW_MILLIS, "the first timestamp sorts above every cell HBase stamped until now");
        assertEquals(oracle.epoch() + 4 * Timestamps.TSO_STEP, storage.readBound(),
                "the first claim covers a whole block above the epoch");
        for (int i = 0; i < 20; i++) {
            assertTrue(oracle.next() <= storage.readBound(), "never above the persisted bound");
        }
    }

    /** Region servers check a reader's claimed epoch against the recorded one (issue 32): it must be there first. */
    @Test
    void theEpochIsRecordedWithTheFirstClaimBeforeAnyTimestampIsHandedOut() throws IOException {
        InMemoryTimestampStorage storage = new InMemoryTimestampStorage();
        TimestampOracle first = TimestampOracle.start(storage, Runnable::run, 4, () -> NOW_MILLIS, IGNORE_LOSS);
        assertEquals(first.epoch(), storage.readEpoch());
        for (int i = 0; i < 10; i++) {
            first.next();
        }
        assertEquals(first.epoch(), storage.readEpoch(), "later claims of the incarnation record the same epoch");
        TimestampOracle second = TimestampOracle.start(storage, Runnable::run, 4, () -> NOW_MILLIS, IGNORE_LOSS);
        assertTrue(second.epoch() > first.epoch());
        assertEquals(second.epoch(), storage.readEpoch());
    }

    @Test
    void epochIsThePersistedBoundWhenTheWallClockIsBehindIt() throws IOException {
        InMemoryTimestampStorage storage = new InMemoryTimestampStorage();
        long bound = Timestamps.wallClockFloor(NOW_MILLIS) + 1000 * Timestamps.TSO_STEP;
        storage.advanceBound(0, bound, 0);
        TimestampOracle oracle = TimestampOracle.start(storage, Runnable::run, 4, () -> NOW_MILLIS, IGNORE_LOSS);
        assertEquals(bound, oracle.epoch());
        assertEquals(bound + Timestamps.TSO_STEP, oracle.next());
    }

    @Test
    void restartWithAClockThatWentBackStartsAboveEverythingHandedOutBefore() throws IOException {
        InMemoryTimestampStorage storage = new InMemoryTimestampStorage();
        TimestampOracle first = TimestampOracle.start(storage, Runnable::run, 8, () -> NOW_MILLIS, IGNORE_LOSS);
        long last = 0;
        for (int i = 0; i < 21; i++) {
            last = first.next();
        }
        TimestampOracle second = TimestampOracle.start(storage, Runnable::run, 8, () -> NOW_MILLIS - 60_000,
                IGNORE_LOSS);
        assertTrue(second.epoch() >= last, "epoch " + second.epoch() + " below old timestamp " + last);
        assertTrue(second.next() > last);
    }
}
