package io.tidemark.tso.timestamp;

import io.tidemark.timestamp.Timestamps;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Hands out strictly increasing TSO timestamps, never one above the bound persisted in {@link TimestampStorage}.
 * The bound is claimed one block at a time; once half of the current block is used, the next block is claimed on
 * {@code extender} so the caller almost never waits for storage.
 *
 * <p>A failed background claim does not fail anyone while the current block has room: it is retried (at most every
 * {@value #RETRY_PAUSE_MS} ms). Only a caller that finds the block used up waits for a claim, and fails if it fails.
 * A claim that finds the bound moved by someone else means another TSO took over: the oracle then refuses every
 * further timestamp and tells its owner, which must stop serving.
 *
 * <p>{@link #next()} and {@link #lastIssued()} have one caller thread (the TSO's event loop); only the claimed
 * bound is shared with the extender, through a volatile field.
 */
public final class TimestampOracle {

    private static final Logger LOG = LoggerFactory.getLogger(TimestampOracle.class);
    private static final long EXTENSION_WAIT_SECONDS = 60;
    static final long RETRY_PAUSE_MS = 100;
    /** Claims of the first block that may lose against the previous TSO's last background claim. */
    private static final int START_ATTEMPTS = 5;

    private final TimestampStorage storage;
    private final Executor extender;
    private final long blockSpan;
    private final long epoch;
    private final Consumer<String> onBoundLost;

    private long lastIssued;
    private @Nullable CompletableFuture<Void> extension;
    private long noClaimBefore;
    private boolean claimFailing;
    /** Set for good once another TSO took the bound: this incarnation must never hand out a timestamp again. */
    private @Nullable TimestampUnavailableException lost;
    private volatile long claimedBound;

    private TimestampOracle(TimestampStorage storage, Executor extender, long blockSpan, long persistedBound,
                            long epoch, Consumer<String> onBoundLost) {
        this.storage = storage;
        this.extender = extender;
        this.blockSpan = blockSpan;
        this.epoch = epoch;
        this.onBoundLost = onBoundLost;
        this.lastIssued = epoch;
        this.claimedBound = persistedBound;
    }

    /**
     * Reads the persisted bound and claims the first block above the new epoch: the larger of that bound and the
     * wall clock's floor ({@link Timestamps#wallClockFloor}), so that every timestamp of this incarnation is above
     * everything earlier incarnations handed out and above every cell HBase stamped with the wall clock before now.
     * A previous TSO's background claim still in flight may move the bound in between: then the bound is read again
     * (the caller must hold the lease, so such a race can only come from a TSO that already stopped).
     *
     * @param timestampsPerBlock how many timestamps each claim covers
     * @param clock the wall clock, in milliseconds since the epoch ({@code System::currentTimeMillis}; tests pass
     *     their own)
     * @param onBoundLost told once, on the claiming thread, when a later claim finds the bound taken by another TSO
     * @throws TimestampBoundLostException when the bound kept moving
     */
    public static TimestampOracle start(TimestampStorage storage, Executor extender, long timestampsPerBlock,
                                        LongSupplier clock, Consumer<String> onBoundLost) throws IOException {
        if (timestampsPerBlock < 1) {
            throw new IllegalArgumentException("timestamps per block must be positive, was " + timestampsPerBlock);
        }
        long blockSpan = Math.multiplyExact(timestampsPerBlock, Timestamps.TSO_STEP);
        for (int attempt = 1; ; attempt++) {
            long persisted = storage.readBound();
            if (persisted < 0 || (persisted & Timestamps.LOW_MASK) != 0) {
                throw new IllegalStateException("persisted timestamp bound " + persisted + " is not a TSO timestamp");
            }
            long epoch = Math.max(persisted, Timestamps.wallClockFloor(clock.getAsLong()));
            TimestampOracle oracle = new TimestampOracle(storage, extender, blockSpan, persisted, epoch, onBoundLost);
            try {
                oracle.claimNextBlock();
                return oracle;
            } catch (TimestampBoundLostException raced) {
                if (attempt >= START_ATTEMPTS) {
                    throw raced;
                }
                LOG.info("The timestamp bound moved while claiming the first block (the previous TSO's last claim);"
                        + " reading it again");
            }
        }
    }

    /**
     * Where this incarnation starts: every timestamp it hands out is above it, and every timestamp an earlier one
     * handed out is at or below it.
     */
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
     * @throws TimestampUnavailableException when the current block is used up and no block can be claimed (storage
     *         failure), or for good once another TSO took the bound
     */
    public long next() {
        if (lost != null) {
            throw lost;
        }
        long ts = lastIssued + Timestamps.TSO_STEP;
        CompletableFuture<Void> running = extension;
        if (running != null && running.isDone()) {
            extension = null;
            collectBackgroundClaim(running);
        }
        while (ts > claimedBound) {
            CompletableFuture<Void> pending = extension;
            extension = null;
            awaitClaim(pending != null ? pending : CompletableFuture.runAsync(this::claimNextBlockUnchecked, extender));
        }
        if (extension == null && claimedBound - ts < blockSpan / 2 && System.nanoTime() - noClaimBefore >= 0) {
            extension = CompletableFuture.runAsync(this::claimNextBlockUnchecked, extender);
        }
        lastIssued = ts;
        return ts;
    }

    /** A finished background claim: a failure only matters if the bound was lost; otherwise it is retried later. */
    private void collectBackgroundClaim(CompletableFuture<Void> done) {
        try {
            done.join();
            if (claimFailing) {
                LOG.info("Claiming timestamp blocks works again");
                claimFailing = false;
            }
        } catch (RuntimeException e) {
            Throwable cause = rootOf(e);
            if (cause instanceof TimestampBoundLostException) {
                throw boundLost(cause);
            }
            noClaimBefore = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RETRY_PAUSE_MS);
            if (!claimFailing) {
                LOG.warn("Claiming the next timestamp block failed; serving from the current block ({} timestamps"
                        + " left) and retrying: {}", (claimedBound - lastIssued) / Timestamps.TSO_STEP,
                        cause.toString());
                claimFailing = true;
            }
        }
    }

    private void awaitClaim(CompletableFuture<Void> pending) {
        try {
            pending.get(EXTENSION_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            Throwable cause = rootOf(e);
            if (cause instanceof TimestampBoundLostException) {
                throw boundLost(cause);
            }
            throw new TimestampUnavailableException("could not claim more timestamps: " + cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw new TimestampUnavailableException("timestamp storage did not answer within "
                    + EXTENSION_WAIT_SECONDS + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TimestampUnavailableException("interrupted while claiming timestamps", e);
        }
    }

    private TimestampUnavailableException boundLost(Throwable cause) {
        lost = new TimestampUnavailableException("this TSO lost its timestamp bound: " + cause.getMessage(), cause);
        LOG.error("This TSO lost its timestamp bound and stops handing out timestamps: {}", cause.getMessage());
        onBoundLost.accept(lost.getMessage());
        return lost;
    }

    private static Throwable rootOf(Throwable e) {
        Throwable cause = e;
        while ((cause instanceof ExecutionException || cause instanceof java.util.concurrent.CompletionException
                || cause instanceof UncheckedIOException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
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
        // The first claim jumps from the persisted bound to above the epoch; later ones extend the claimed block.
        long next = Math.addExact(Math.max(current, epoch), blockSpan);
        storage.advanceBound(current, next, epoch);
        claimedBound = next;
    }
}
