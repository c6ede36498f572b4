package io.tidemark.tso.timestamp;

import io.tidemark.timestamp.Timestamps;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Hands out strictly increasing TSO timestamps, never one above the bound persisted in {@link TimestampStorage}.
 * The bound is claimed one block at a time; once half of the current block is used, the next block is claimed on
 * {@code extender} so the caller almost never waits for storage.
 *
 * <p>{@link #next()} and {@link #lastIssued()} have one caller thread (the TSO's event loop); only the claimed
 * bound is shared with the extender, through a volatile field.
 */
public final class TimestampOracle {

    private static final Logger LOG = LoggerFactory.getLogger(TimestampOracle.class);
    private static final long EXTENSION_WAIT_SECONDS = 60;

    private final TimestampStorage storage;
    private final Executor extender;
    private final long blockSpan;
    private final long epoch;

    private long lastIssued;
    private CompletableFuture<Void> extension;
    /** Set for good once another TSO took the bound: this incarnation must never hand out a timestamp again. */
    private TimestampUnavailableException lost;
    private volatile long claimedBound;

    private TimestampOracle(TimestampStorage storage, Executor extender, long blockSpan, long epoch) {
        this.storage = storage;
        this.extender = extender;
        this.blockSpan = blockSpan;
        this.epoch = epoch;
        this.lastIssued = epoch;
        this.claimedBound = epoch;
    }

    /**
     * Reads the persisted bound (the new epoch) and claims the first block above it.
     *
     * @param timestampsPerBlock how many timestamps each claim covers
     * @throws TimestampBoundLostException when another TSO claimed concurrently
     */
    public static TimestampOracle start(TimestampStorage storage, Executor extender, long timestampsPerBlock)
            throws IOException {
        if (timestampsPerBlock < 1) {
            throw new IllegalArgumentException("timestamps per block must be positive, was " + timestampsPerBlock);
        }
        long epoch = storage.readBound();
        if (epoch < 0 || (epoch & Timestamps.LOW_MASK) != 0) {
            throw new IllegalStateException("persisted timestamp bound " + epoch + " is not a TSO timestamp");
        }
        TimestampOracle oracle = new TimestampOracle(storage, extender,
                Math.multiplyExact(timestampsPerBlock, Timestamps.TSO_STEP), epoch);
        oracle.claimNextBlock();
        return oracle;
    }

    /** The bound persisted before this incarnation: every timestamp it hands out is above it. */
    public long epoch() {
        return epoch;
    }

    /** The last timestamp handed out, or the epoch when none was. */
    public long lastIssued() {
        return lastIssued;
    }

    /**
     * The next timestamp.
     *
     * @throws TimestampUnavailableException when no block can be claimed (storage failure, or another TSO took over)
     */
    public long next() {
        if (lost != null) {
            throw lost;
        }
        long ts = lastIssued + Timestamps.TSO_STEP;
        if (extension != null && extension.isDone()) {
            awaitExtension();
        }
        while (ts > claimedBound) {
            if (extension == null) {
                extension = CompletableFuture.runAsync(this::claimNextBlockUnchecked, extender);
            }
            awaitExtension();
        }
        if (extension == null && claimedBound - ts < blockSpan / 2) {
            extension = CompletableFuture.runAsync(this::claimNextBlockUnchecked, extender);
        }
        lastIssued = ts;
        return ts;
    }

    private void awaitExtension() {
        CompletableFuture<Void> pending = extension;
        extension = null;
        try {
            pending.get(EXTENSION_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof UncheckedIOException ? e.getCause().getCause() : e.getCause();
            TimestampUnavailableException failure = new TimestampUnavailableException(
                    "could not claim more timestamps: " + cause.getMessage(), cause);
            if (cause instanceof TimestampBoundLostException) {
                LOG.error("This TSO lost its timestamp bound and stops handing out timestamps: {}",
                        cause.getMessage());
                lost = failure;
            }
            throw failure;
        } catch (TimeoutException e) {
            throw new TimestampUnavailableException("timestamp storage did not answer within "
                    + EXTENSION_WAIT_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TimestampUnavailableException("interrupted while claiming timestamps", e);
        }
    }

    private void claimNextBlockUnchecked() {
        try {
            claimNextBlock();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void claimNextBlock() throws IOException {
        long current = claimedBound;
        long next = Math.addExact(current, blockSpan);
        storage.advanceBound(current, next);
        claimedBound = next;
    }
}
