package io.tidemark.tso.conflict;

/**
 * Last commit timestamp of each recently written cell (or row) id, in fixed memory, for first-committer-wins
 * conflict detection.
 *
 * <p>Layout: two parallel {@code long[]} arrays (id, commit timestamp), so an entry costs {@value #BYTES_PER_ENTRY}
 * bytes and the map allocates nothing after construction. Entries form {@value #WAYS}-way set-associative buckets;
 * a commit timestamp of 0 marks a free slot. When an id must be recorded in a full bucket, the entry with the
 * smallest commit timestamp is evicted and the low watermark rises to it: from then on, a transaction that started
 * at or below the low watermark cannot be checked any more and must abort, while one that started above it cannot
 * conflict with anything the map forgot.
 *
 * <p>One writer thread (the TSO's event loop) calls every method except {@link #publishedLowWatermark()}.
 */
public final class ConflictMap {

    public static final int WAYS = 8;
    public static final int BYTES_PER_ENTRY = 2 * Long.BYTES;
    /** Largest capacity: 2^27 buckets of {@value #WAYS} entries (16 GiB). */
    public static final int MAX_ENTRIES = 1 << 30;

    /** Told about every eviction, for metrics. */
    public interface EvictionListener {
        void evicted(long commitTimestamp);
    }

    private final long[] ids;
    private final long[] commits;
    private final int bucketMask;
    private final EvictionListener evictionListener;
    private long lowWatermark;
    private volatile long publishedLowWatermark;
    /**
     * Slots in use. Entries are replaced, never removed, so it only grows until the map is full; written by the one
     * writer thread, volatile for the metrics (no write at all once full).
     */
    private volatile int used;

    /**
     * @param minEntries capacity wanted; rounded up to a power-of-two number of {@value #WAYS}-entry buckets
     * @param lowWatermark initial low watermark: nothing at or below it can be checked
     */
    public ConflictMap(int minEntries, long lowWatermark, EvictionListener evictionListener) {
        if (minEntries < 1 || minEntries > MAX_ENTRIES) {
            throw new IllegalArgumentException("conflict map entries must be from 1 to " + MAX_ENTRIES + ", was "
                    + minEntries);
        }
        int buckets = Integer.highestOneBit(Math.max(1, (minEntries + WAYS - 1) / WAYS) * 2 - 1);
        this.ids = new long[buckets * WAYS];
        this.commits = new long[buckets * WAYS];
        this.bucketMask = buckets - 1;
        this.evictionListener = evictionListener;
        this.lowWatermark = lowWatermark;
        this.publishedLowWatermark = lowWatermark;
    }

    /** Number of entries the map holds at most. */
    public int capacity() {
        return ids.length;
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

    /** Whether any id in {@code writeSet} has a recorded commit after {@code startTimestamp}. */
    public boolean conflicts(long[] writeSet, long startTimestamp) {
        for (long id : writeSet) {
            if (lastCommit(id) > startTimestamp) {
                return true;
            }
        }
        return false;
    }

    /** The recorded commit timestamp of {@code id}, or 0 when the map does not remember one. */
    public long lastCommit(long id) {
        int base = bucketOf(id);
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

    private void record(long id, long commitTimestamp) {
        int base = bucketOf(id);
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
            evict(commits[oldest]);
        } else {
            used++;
        }
        ids[slot] = id;
        commits[slot] = commitTimestamp;
    }

    private void evict(long commitTimestamp) {
        raiseLowWatermark(commitTimestamp);
        evictionListener.evicted(commitTimestamp);
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

    private int bucketOf(long id) {
        // Ids may be dense (row numbers) or already hashed; mixing spreads both over the buckets.
        long h = id * 0x9E3779B97F4A7C15L;
        h ^= h >>> 29;
        return ((int) h & bucketMask) * WAYS;
    }
}
