package io.tidemark.tso.conflict;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConflictMapTest {

    private final AtomicInteger evictions = new AtomicInteger();

    private ConflictMap map(int entries) {
        return new ConflictMap(entries, 0, commit -> evictions.incrementAndGet());
    }

    @Test
    void writeCommittedAfterStartConflicts() {
        ConflictMap map = map(64);
        map.record(new long[] {1, 2}, 100);
        assertTrue(map.conflicts(new long[] {3, 2}, 50));
        assertFalse(map.conflicts(new long[] {2}, 100), "a commit at the start timestamp is in the snapshot");
        assertFalse(map.conflicts(new long[] {2}, 150));
        assertFalse(map.conflicts(new long[] {3, 4}, 50));
    }

    @Test
    void laterCommitReplacesEarlierOneForSameId() {
        ConflictMap map = map(64);
        map.record(new long[] {5}, 100);
        map.record(new long[] {5}, 300);
        assertEquals(300, map.lastCommit(5));
        assertTrue(map.conflicts(new long[] {5}, 200));
        assertEquals(0, evictions.get());
    }

    @Test
    void fillCountsEntriesInUseUntilTheMapIsFull() {
        ConflictMap map = map(ConflictMap.WAYS);
        assertEquals(0.0, map.fill());
        map.record(new long[] {1, 2}, 100);
        map.record(new long[] {1}, 200);
        assertEquals(2.0 / ConflictMap.WAYS, map.fill(), "an id written again reuses its entry");
        for (long id = 10; id < 10 + 2 * ConflictMap.WAYS; id++) {
            map.record(new long[] {id}, 300 + id);
        }
        assertEquals(1.0, map.fill(), "a full map stays full: entries are replaced, never removed");
    }

    @Test
    void evictionRaisesLowWatermarkToEvictedCommit() {
        ConflictMap map = map(ConflictMap.WAYS);
        for (int i = 1; i <= ConflictMap.WAYS; i++) {
            map.record(new long[] {i}, i * 10L);
        }
        assertEquals(0, map.lowWatermark());
        map.record(new long[] {99}, 1000);
        assertEquals(1, evictions.get());
        assertEquals(10, map.lowWatermark(), "the oldest commit (10) was evicted");
        assertEquals(10, map.publishedLowWatermark());
        assertEquals(0, map.lastCommit(1));
        assertEquals(1000, map.lastCommit(99));
    }

    @Test
    void memoryStaysBoundedAndEveryForgottenCommitIsBelowLowWatermark() {
        ConflictMap map = map(1000);
        int capacity = map.capacity();
        assertEquals(1024, capacity, "1000 entries round up to 128 buckets of 8");
        for (long commit = 1; commit <= 100_000; commit++) {
            map.record(new long[] {commit * 31}, commit);
        }
        assertEquals(capacity, map.capacity());
        assertTrue(evictions.get() >= 100_000 - capacity);
        long low = map.lowWatermark();
        for (long commit = 1; commit <= 100_000; commit++) {
            long remembered = map.lastCommit(commit * 31);
            assertTrue(remembered == commit || commit <= low,
                    "commit " + commit + " forgotten although the low watermark is only " + low);
        }
    }

    @Test
    void capacityOutsideLimitsIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> map(0));
    }
}
