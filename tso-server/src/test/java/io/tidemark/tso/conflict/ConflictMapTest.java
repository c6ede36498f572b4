package io.tidemark.tso.conflict;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

import static io.tidemark.tso.conflict.ConflictMap.Recall.FORGOTTEN;
import static io.tidemark.tso.conflict.ConflictMap.Recall.NOT_WRITTEN;
import static io.tidemark.tso.conflict.ConflictMap.Recall.WRITTEN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(60)
class ConflictMapTest {

    private static final KeyedHash KEY = new KeyedHash(0x1234, 0x5678);

    private final AtomicInteger evictions = new AtomicInteger();

    private ConflictMap map(int entries) {
        return new ConflictMap(entries, 0, KEY, commit -> evictions.incrementAndGet());
    }

    @Test
    void writeCommittedAfterStartIsWritten() {
        ConflictMap map = map(64);
        map.record(new long[] {1, 2}, 100);
        assertEquals(WRITTEN, map.check(new long[] {3, 2}, 50));
        assertEquals(NOT_WRITTEN, map.check(new long[] {2}, 100), "a commit at the start timestamp is in the snapshot");
        assertEquals(NOT_WRITTEN, map.check(new long[] {2}, 150));
        assertEquals(NOT_WRITTEN, map.check(new long[] {3, 4}, 50));
    }

    @Test
    void laterCommitReplacesEarlierOneForSameId() {
        ConflictMap map = map(64);
        map.record(new long[] {5}, 100);
        map.record(new long[] {5}, 300);
        assertEquals(300, map.lastCommit(5));
        assertEquals(WRITTEN, map.check(5, 200));
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
    void inAMapOfOneBucketAnEvictionRaisesTheLowWatermarkToTheEvictedCommit() {
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
        assertEquals(FORGOTTEN, map.check(1, 5), "the evicted commit may have been after 5");
        assertEquals(NOT_WRITTEN, map.check(1, 10));
        assertEquals(1000, map.lastCommit(99));
    }

    @Test
    void evictionsInOneBucketLeaveOtherBucketsAndTheLowWatermarkAlone() {
        ConflictMap map = map(1024);
        int target = map.bucketOf(1);
        long[] sameBucket = idsInBucket(map, target, 3 * ConflictMap.WAYS);
        long commit = 1000;
        for (long id : sameBucket) {
            map.record(id, commit++);
        }
        assertEquals(2 * ConflictMap.WAYS, evictions.get(), "every id beyond the bucket's eight evicted one");
        assertEquals(0, map.lowWatermark(), "the other buckets forgot nothing");
        long outsider = idsOutsideBucket(map, target);
        assertEquals(NOT_WRITTEN, map.check(outsider, 1), "an id of another bucket is still known unwritten");
        assertEquals(FORGOTTEN, map.check(sameBucket[0], 1), "an evicted id of the full bucket is unknown");
        assertEquals(NOT_WRITTEN, map.check(sameBucket[0], 1000 + 2 * ConflictMap.WAYS - 1),
                "not after the bucket's newest eviction");
        assertEquals(WRITTEN, map.check(sameBucket[sameBucket.length - 1], 1), "what the bucket holds is precise");
    }

    @Test
    void theLowWatermarkFollowsTheBucketThatForgotLeast() {
        ConflictMap map = map(2 * ConflictMap.WAYS);
        int first = map.bucketOf(1);
        long[] firstIds = idsInBucket(map, first, ConflictMap.WAYS + 1);
        long[] otherIds = idsInBucket(map, 1 - first, ConflictMap.WAYS + 3);
        long commit = 100;
        for (long id : firstIds) {
            map.record(id, commit++);
        }
        assertEquals(0, map.lowWatermark(), "one bucket evicted (100), the other nothing yet");
        for (long id : otherIds) {
            map.record(id, commit++);
        }
        assertEquals(100, map.lowWatermark(), "both buckets evicted: the lower of their watermarks (100, 111)");
    }

    @Test
    void neverForgetsACommitWithoutSayingSo() {
        ConflictMap map = map(1000);
        assertEquals(1024, map.capacity(), "1000 entries round up to 128 buckets of 8");
        SplittableRandom random = new SplittableRandom(42);
        Map<Long, Long> latest = new HashMap<>();
        for (long commit = 1; commit <= 100_000; commit++) {
            long id = random.nextLong(5000);
            map.record(id, commit);
            latest.put(id, commit);
        }
        assertEquals(1024, map.capacity(), "memory stays bounded");
        assertTrue(evictions.get() > 0);
        for (Map.Entry<Long, Long> written : latest.entrySet()) {
            long start = written.getValue() - 1;
            assertNotEquals(NOT_WRITTEN, map.check(written.getKey(), start), "the commit at " + written.getValue()
                    + " of id " + written.getKey() + " was lost without its bucket saying so");
        }
        assertTrue(map.lowWatermark() > 0, "with every bucket full, the low watermark rose");
    }

    @Test
    void idsFilledIntoOneBucketUnderOneKeySpreadUnderAnother() {
        ConflictMap attacked = map(1 << 16);
        long[] colliding = idsInBucket(attacked, attacked.bucketOf(7), 50);
        ConflictMap other = new ConflictMap(1 << 16, 0, new KeyedHash(99, 100), commit -> { });
        long distinctBuckets = java.util.Arrays.stream(colliding).map(other::bucketOf).distinct().count();
        assertTrue(distinctBuckets > 40, "50 ids of one bucket fell into " + distinctBuckets + " under another key");
    }

    @Test
    void capacityOutsideLimitsIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> map(0));
    }

    private static long[] idsInBucket(ConflictMap map, int bucket, int count) {
        long[] ids = new long[count];
        int found = 0;
        for (long id = 1; found < count; id++) {
            if (map.bucketOf(id) == bucket) {
                ids[found++] = id;
            }
        }
        return ids;
    }

    private static long idsOutsideBucket(ConflictMap map, int bucket) {
        long id = 1;
        while (map.bucketOf(id) == bucket) {
            id++;
        }
        return id;
    }
}
