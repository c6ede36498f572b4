package io.tidemark.client.fastpath;

import io.tidemark.fastpath.IdempotencyKey;
import org.jspecify.annotations.Nullable;

import java.security.SecureRandom;
import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * Where a {@link FastPathTable}'s idempotency keys come from (docs/fast-path.md, "Retries"): a stream id of 128 random
 * bits and strictly increasing sequence numbers. One table uses one stream at a time, from one thread.
 *
 * <p>A stream id is used for new operations for at most one operation timeout after it was drawn; then the stream
 * draws a new id (sequence numbers keep increasing). Region servers may remove a stream's operation record once it is
 * older than their TTL, and the delete marker would hide any later record of the same id in that row; a bounded
 * lifetime means an id is never used again by the time one of its records can expire (the region server checks that
 * the client's timeout fits its TTL).
 *
 * <p>A {@code TransactionManager} takes a stream for each single-region commit and hands it back once the commit's
 * outcome is known (a stream whose last operation's outcome is unknown is never used again).
 *
 * <p>Closed tables hand their stream back to a pool for the next table, so an application that opens a table per
 * request still leaves only about as many records in a row as it runs tables at once.
 */
public final class OperationStream {

    private static final Deque<OperationStream> IDLE = new ConcurrentLinkedDeque<>();
    private static final SecureRandom RANDOM = new SecureRandom();

    private byte @Nullable [] id;
    private long drawnAtNanos;
    private long lastSequence;

    private OperationStream() {
    }

    /** A stream for a new table (or a single-region commit): the one handed back last, or a new one. */
    public static OperationStream take() {
        OperationStream idle = IDLE.pollFirst();
        return idle != null ? idle : new OperationStream();
    }

    /** Hands the stream to a later table; the caller must not use it any more. */
    public void giveBack() {
        IDLE.offerFirst(this);
    }

    /**
     * The key of a new operation starting at {@code nowNanos} ({@link System#nanoTime()}), whose attempts all end
     * within {@code timeoutNanos}; draws a new id when the current one is that old.
     */
    public IdempotencyKey next(long nowNanos, long timeoutNanos) {
        if (id == null || nowNanos - drawnAtNanos >= timeoutNanos) {
            id = new byte[IdempotencyKey.STREAM_ID_LENGTH];
            RANDOM.nextBytes(id);
            drawnAtNanos = nowNanos;
        }
        return new IdempotencyKey(id, ++lastSequence);
    }
}
