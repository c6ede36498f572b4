package io.tidemark.tso.conflict;

import java.util.Arrays;

/**
 * Last commit timestamp of each recently written cell (or row) id, in fixed memory, for first-committer-wins
 * conflict detection.
 *
 * <p>Layout: two parallel {@code long[]} arrays (id, commit timestamp) of {@value #WAYS}-way set-associative buckets,
 * plus one {@code long} per bucket, so the map costs {@value #BYTES_PER_ENTRY} bytes per entry and
 * {@value #BYTES_PER_BUCKET} per bucket and allocates nothing after construction. A commit timestamp of 0 marks a
 * free slot. An id's bucket comes from a {@link KeyedHash} under a secret key of the TSO incarnation: nobody without
 * the key can choose ids that land in one bucket.
 *
 * <p>Forgetting. When an id must be recorded in a full bucket, the entry with the smallest commit timestamp is
 * evicted, and that bucket's <em>watermark</em> rises to it: the bucket may have forgotten commits up to its
 * watermark, never later ones. So a COMMIT that started at {@code s} is judged per id ({@link #check}): an id the map
 * holds is precise (its entry is its latest commit); an id it does not hold is unknown when its bucket's watermark is
 * above {@code s}, and the transaction must abort. Evictions in one bucket (a client filling it on purpose) thus
 * concern only the ids of that bucket, not every transaction.
 *
 * <p>The map's <em>low watermark</em>, what the TSO publishes, persists and compaction collects below, is at most the
 * lowest bucket watermark: a sweep over the buckets, a few per eviction, lifts it to the lowest watermark it saw in a
 * full pass. It also rises when the caller raises it ({@link #raiseLowWatermark}, for the transaction timeout). A
 * transaction that started at or below it aborts whatever its ids. One full bucket cannot move it.
 *
 * <p>One writer thread (the TSO's event loop) calls every method except {@link #publishedLowWatermark()} and
 * {@link #fill()}.
 */
public final class ConflictMap {

    public static final int WAYS = 8;
    public static final int BYTES_PER_ENTRY = 2 * Long.BYTES;
    public static final int BYTES_PER_BUCKET = Long.BYTES;
    /** Largest capacity: 2^27 buckets of {@value #WAYS} entries (16 GiB plus 1 GiB of bucket watermarks). */
    public static final int MAX_ENTRIES = 1 << 30;
    /**
     * Buckets the low-watermark sweep looks at per eviction: a full pass takes buckets / 8 evictions, a 64th of the
     * evictions that turn the whole map over, so the low watermark trails the lowest bucket by little.
     */
    static final int SWEEP_BUCKETS_PER_EVICTION = 8;

    /** What the map knows about writes of one id (or several) after a start timestamp; later constants win. */
    public enum Recall {
        /** The map knows the id was not written after the start timestamp. */
        NOT_WRITTEN,
        /** The id's bucket forgot commits after the start timestamp: the map cannot tell. */
        FORGOTTEN,
        /** The id was written (committed) after the start timestamp. */
        WRITTEN;

        /** What is known of two ids together: written wins over forgotten, which wins over not written. */
        public Recall and(Recall other) {
            return compareTo(other) >= 0 ? this : other;
        }
    }

    /** Told about every eviction, for metrics. */
    public interface EvictionListener {
        void evicted(long commitTimestamp);
    }

    private final long[] ids;
    private final long[] commits;
    /** Per bucket: the newest commit timestamp it evicted (or the initial low watermark). */
    private final long[] watermarks;
    private final int bucketMask;
    private final KeyedHash bucketHash;
    private final EvictionListener evictionListener;
    private long lowWatermark;
    private volatile long publishedLowWatermark;
    private int sweepCursor;
    private long sweepLowest = Long.MAX_VALUE;
    /**
     * Slots in use. Entries are replaced, never removed, so it only grows until the map is full; written by the one
     * writer thread, volatile for the metrics (no write at all once full).
     */
    private volatile int used;

    /**
     * @param minEntries capacity wanted; rounded up to a power-of-two number of {@value #WAYS}-entry buckets
     * @param lowWatermark initial low watermark (and watermark of every bucket): nothing at or below it can be checked
     * @param bucketHash chooses an id's bucket; under a secret key in production
     */
    public ConflictMap(int minEntries, long lowWatermark, KeyedHash bucketHash, EvictionListener evictionListener) {
        if (minEntries < 1 || minEntries > MAX_ENTRIES) {
            throw new IllegalArgumentException("conflict map entries must be from 1 to " + MAX_ENTRIES + ", was "
                    + minEntries);
        }
        int buckets = Integer.highestOneBit(Math.max(1, (minEntries + WAYS - 1) / WAYS) * 2 - 1);
        this.ids = new long[buckets * WAYS];
        this.commits = new long[buckets * WAYS];
        this.watermarks = new long[buckets];
        Arrays.fill(watermarks, lowWatermark);
        this.bucketMask = buckets - 1;
        this.bucketHash = bucketHash;
        this.evictionListener = evictionListener;
        this.lowWatermark = lowWatermark;
        this.publishedLowWatermark = lowWatermark;
    }

    /** Number of entries the map holds at most. */
    public int capacity() {
        return ids.length;
    }

    /** Bytes the map's arrays take for {@code minEntries} entries wanted (for the memory formula of the docs). */
    public static long bytesFor(int minEntries) {
        long buckets = Integer.highestOneBit(Math.max(1, (minEntries + WAYS - 1) / WAYS) * 2 - 1);
        return buckets * (WAYS * BYTES_PER_ENTRY + BYTES_PER_BUCKET);
    }

    public long lowWatermark() {
        return lowWatermark;
    }

    /** Share of the entries in use, 0 to 1, readable from any thread; once 1, each new id evicts an entry. */
    public double fill() {
        return (double) used / ids.length;
    }

    /** The low watermark as last seen by the writer thread, readable from any thread. */
    public long publishedLowWatermark() {
        return publishedLowWatermark;
    }

    /**
     * What the map knows about writes of the ids of {@code writeSet} after {@code startTimestamp}: {@code WRITTEN} as
     * soon as one id was, else {@code FORGOTTEN} when one id's bucket forgot commits after it, else
     * {@code NOT_WRITTEN}.
     */
    public Recall check(long[] writeSet, long startTimestamp) {
        Recall result = Recall.NOT_WRITTEN;
        for (int i = 0; i < writeSet.length && result != Recall.WRITTEN; i++) {
            result = result.and(check(writeSet[i], startTimestamp));
        }
        return result;
    }

    /** What the map knows about writes of {@code id} after {@code startTimestamp}. */
    public Recall check(long id, long startTimestamp) {
        int bucket = bucketOf(id);
        int base = bucket * WAYS;
        for (int i = base; i < base + WAYS; i++) {
            if (commits[i] != 0 && ids[i] == id) {
                // The entry is the id's latest commit: every earlier entry of it was replaced, not evicted.
                return commits[i] > startTimestamp ? Recall.WRITTEN : Recall.NOT_WRITTEN;
            }
        }
        return watermarks[bucket] > startTimestamp ? Recall.FORGOTTEN : Recall.NOT_WRITTEN;
    }

    /** The recorded commit timestamp of {@code id}, or 0 when the map does not hold one. */
    public long lastCommit(long id) {
        int base = bucketOf(id) * WAYS;
        for (int i = base; i < base + WAYS; i++) {
            if (commits[i] != 0 && ids[i] == id) {
                return commits[i];
            }
        }
        return 0;
    }

    /** Records that every id in {@code writeSet} was last written by the commit at {@code commitTimestamp}. */
    public void record(long[] writeSet, long commitTimestamp) {
        for (long id : writeSet) {
            record(id, commitTimestamp);
        }
    }

    /** Records that {@code id} was last written by the commit at {@code commitTimestamp}. */
    @SuppressWarnings("NonAtomicVolatileUpdate") // used has one writer thread; volatile only for the metrics
    public void record(long id, long commitTimestamp) {
        int bucket = bucketOf(id);
        int base = bucket * WAYS;
        int free = -1;
        int oldest = base;
        for (int i = base; i < base + WAYS; i++) {
            long c = commits[i];
            if (c == 0) {
                if (free < 0) {
                    free = i;
                }
            } else if (ids[i] == id) {
                commits[i] = commitTimestamp;
                return;
            } else if (c < commits[oldest] || commits[oldest] == 0) {
                oldest = i;
            }
        }
        int slot = free >= 0 ? free : oldest;
        if (free < 0) {
            evict(bucket, commits[oldest]);
        } else {
            used++;
        }
        ids[slot] = id;
        commits[slot] = commitTimestamp;
    }

    private void evict(int bucket, long commitTimestamp) {
        if (commitTimestamp > watermarks[bucket]) {
            watermarks[bucket] = commitTimestamp;
        }
        evictionListener.evicted(commitTimestamp);
        sweep();
    }

    /** Looks at the next few buckets; at the end of a pass, lifts the low watermark to the lowest one seen. */
    private void sweep() {
        int end = Math.min(sweepCursor + SWEEP_BUCKETS_PER_EVICTION, watermarks.length);
        for (int b = sweepCursor; b < end; b++) {
            sweepLowest = Math.min(sweepLowest, watermarks[b]);
        }
        sweepCursor = end;
        if (sweepCursor == watermarks.length) {
            // Watermarks only rise, so the lowest seen during the pass is at most the lowest there is now.
            raiseLowWatermark(sweepLowest);
            sweepCursor = 0;
            sweepLowest = Long.MAX_VALUE;
        }
    }

    /**
     * Raises the low watermark to {@code timestamp} if it is lower: the caller refuses every COMMIT of a start at or
     * below it from now on (for example, because the transaction timeout expired those transactions).
     */
    public void raiseLowWatermark(long timestamp) {
        if (timestamp > lowWatermark) {
            lowWatermark = timestamp;
            publishedLowWatermark = timestamp;
        }
    }

    int bucketOf(long id) {
        return (int) (bucketHash.hash(id) >>> 32) & bucketMask;
    }
}
