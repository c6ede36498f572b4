package io.tidemark.coprocessor.fastpath;

import io.tidemark.fastpath.FastPathUnavailableException;
import io.tidemark.timestamp.Timestamps;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.security.SecureRandom;
import java.util.TreeMap;

/**
 * The fast-path clock of one open region (docs/fast-path.md, "The read clock").
 *
 * <p>It remembers the largest start timestamp of a generic transaction that read from the region, and every version
 * is minted above it, so a fast-path write can never slip into the snapshot of a transaction that already read the
 * region. Minting and observing a read are ordered by this object's monitor; a read additionally waits until every
 * version minted before it at or below its snapshot is written, so what it reads cannot change later.
 *
 * <p>The clock lives in memory only. A freshly opened region does not know which snapshots read it at its previous
 * location, so it refuses to mint until a client brings a TSO timestamp obtained after a refusal by this very clock
 * ({@link #acceptFreshTimestamp}): every earlier reader's start timestamp is below it. Refusals carry the clock's
 * {@link #incarnation()}, a random number drawn when the region opens, and a fresh timestamp counts only together
 * with it: a timestamp obtained after a refusal by an earlier incarnation of the region (an attempt HBase re-sends
 * to the region's new location) may be older than snapshots that read the region since, and is ignored.
 */
final class RegionClock {

    private final long incarnation;
    private long readClock;
    private long maxMinted;
    private boolean initialized;
    /** The first fresh timestamp this incarnation accepted: every transaction that began before it may be fenced. */
    private long firstFresh;
    /** Minted versions whose write is still in progress, with their count. */
    private final TreeMap<Long, Integer> inFlight = new TreeMap<>();

    /** A clock for a region that was just opened: it knows no reader yet and has a new incarnation. */
    RegionClock() {
        this(newIncarnation());
    }

    RegionClock(long incarnation) {
        if (incarnation == 0) {
            throw new IllegalArgumentException("a region incarnation is never 0");
        }
        this.incarnation = incarnation;
    }

    private static long newIncarnation() {
        long incarnation;
        do {
            incarnation = new SecureRandom().nextLong();
        } while (incarnation == 0);
        return incarnation;
    }

    /** The number this clock's refusals carry, different for every opening of the region. */
    long incarnation() {
        return incarnation;
    }

    /** Raises the clock to a generic reader's start timestamp, then waits for writes minted at or below it. */
    synchronized void observeRead(long startTimestamp, long maxWaitMillis) throws IOException {
        readClock = Math.max(readClock, startTimestamp);
        long deadline = System.nanoTime() + maxWaitMillis * 1_000_000L;
        while (!inFlight.isEmpty() && inFlight.firstKey() <= startTimestamp) {
            long leftMillis = (deadline - System.nanoTime()) / 1_000_000L;
            if (leftMillis <= 0) {
                throw new IOException("a generic read at snapshot " + startTimestamp + " waited " + maxWaitMillis
                        + " ms for fast-path writes minted below it to finish; retry the read");
            }
            try {
                wait(leftMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for fast-path writes below snapshot "
                        + startTimestamp);
            }
        }
    }

    /**
     * A TSO timestamp a client obtained after a refusal by incarnation {@code refusedBy}. If that is this clock's
     * incarnation, every snapshot that read the region before the refusal (here or at an earlier location) is below
     * the timestamp, so it becomes the read clock's floor; otherwise it proves nothing and is ignored.
     *
     * @return whether the timestamp was accepted
     */
    synchronized boolean acceptFreshTimestamp(long tsoTimestamp, long refusedBy) {
        if (refusedBy != incarnation) {
            return false;
        }
        readClock = Math.max(readClock, tsoTimestamp);
        if (!initialized) {
            firstFresh = tsoTimestamp;
        }
        initialized = true;
        return true;
    }

    /**
     * A TSO timestamp handed out after this incarnation opened (the first fresh timestamp it accepted), or 0 before it
     * has one. Every schema change (and bulk load) raises its fence and then reopens the regions, so a transaction
     * that started below this may have been fenced: its single-region commit declines, and the TSO decides.
     */
    synchronized long openedBefore() {
        return firstFresh;
    }

    /**
     * Mints a version above {@code floor} (the row version and the client's session timestamp) and above the read
     * clock, without leaving the fast-path range after {@code floor}'s TSO timestamp (low bits 1 to
     * {@link Timestamps#MAX_FAST_PATH_LOW}; the versions above are the checkpoints of the transaction that started at
     * that TSO timestamp, {@link Timestamps#isCheckpointVersion}). The caller must {@link #release} it once
     * its write is done (or failed).
     */
    synchronized long mint(long floor) throws FastPathUnavailableException {
        if (!initialized) {
            throw FastPathUnavailableException.refusal("the region was opened recently and has not learned a TSO"
                    + " timestamp yet; retry with a TSO timestamp obtained after this refusal (fall back to the"
                    + " generic path once)", incarnation);
        }
        long base = Math.max(floor, readClock);
        long version = base + 1;
        if (!Timestamps.isFastPathVersion(version)) {
            throw FastPathUnavailableException.refusal("no fast-path version is left between TSO timestamp "
                    + Timestamps.tsoPart(base) + " and the next one for this row; retry with a TSO timestamp"
                    + " obtained after this refusal (fall back to the generic path once)", incarnation);
        }
        inFlight.merge(version, 1, Integer::sum);
        maxMinted = Math.max(maxMinted, version);
        return version;
    }

    synchronized void release(long version) {
        inFlight.computeIfPresent(version, (v, count) -> count == 1 ? null : count - 1);
        notifyAll();
    }

    synchronized boolean initialized() {
        return initialized;
    }

    /** The paper's region-wide clock: the largest snapshot that read here and the largest version minted here. */
    synchronized long regionWide() {
        return Math.max(readClock, maxMinted);
    }
}
