package io.tidemark.tso.timestamp;

import io.tidemark.timestamp.Timestamps;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TimestampOracleTest {

    @Test
    void timestampsAreStrictlyIncreasingTsoTimestampsAboveTheEpoch() throws IOException {
        TimestampOracle oracle = TimestampOracle.start(new InMemoryTimestampStorage(), Runnable::run, 10);
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
        TimestampOracle oracle = TimestampOracle.start(storage, Runnable::run, 4);
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
            TimestampOracle oracle = TimestampOracle.start(new InMemoryTimestampStorage(), extender, 1);
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
        TimestampOracle first = TimestampOracle.start(storage, Runnable::run, 8);
        long last = 0;
        for (int i = 0; i < 21; i++) {
            last = first.next();
        }
        TimestampOracle second = TimestampOracle.start(storage, Runnable::run, 8);
        assertTrue(second.epoch() >= last, "epoch " + second.epoch() + " below old timestamp " + last);
        assertTrue(second.next() > last);
    }

    @Test
    void oracleThatLostItsBoundToAnotherTsoRefusesTimestampsForGood() throws IOException {
        InMemoryTimestampStorage storage = new InMemoryTimestampStorage();
        TimestampOracle loser = TimestampOracle.start(storage, Runnable::run, 1);
        TimestampOracle winner = TimestampOracle.start(storage, Runnable::run, 1);
        long lastOfLoser = loser.next();
        assertTrue(lastOfLoser <= winner.epoch(), "the loser may only use the block it owned");
        assertThrows(TimestampUnavailableException.class, loser::next);
        assertThrows(TimestampUnavailableException.class, loser::next);
        assertTrue(winner.next() > lastOfLoser);
    }
}
