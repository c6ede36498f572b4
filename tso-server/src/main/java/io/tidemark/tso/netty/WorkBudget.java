package io.tidemark.tso.netty;

import io.tidemark.protocol.BeginRequest;
import io.tidemark.protocol.CommitRequest;

/**
 * How much event-loop work one connection may still cause now: a token bucket counted in ids (a BEGIN costs 1, a
 * COMMIT 1 plus its write-set and table ids, about proportional to its conflict check), refilled at
 * {@code tidemark.tso.max-ids-per-second} and holding at most a tenth of a second's worth. A request is admitted while
 * the bucket is not empty and may take it below zero, so one maximum-size COMMIT always goes through, and the
 * connection then waits until the bucket refilled. Event-loop confined.
 */
final class WorkBudget {

    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final double idsPerNano;
    private final double burst;
    private double tokens;
    private long refilledNanos;

    WorkBudget(int idsPerSecond, long nowNanos) {
        this.idsPerNano = (double) idsPerSecond / NANOS_PER_SECOND;
        this.burst = Math.max(1, idsPerSecond / 10.0);
        this.tokens = burst;
        this.refilledNanos = nowNanos;
    }

    /** What {@code request} costs, in ids. */
    static int costOf(Object request) {
        if (request instanceof CommitRequest) {
            CommitRequest commit = (CommitRequest) request;
            return 1 + commit.writeSet().length + commit.tableIds().length;
        }
        return request instanceof BeginRequest ? 1 : 0;
    }

    /** Whether a request may be admitted now. */
    boolean available(long nowNanos) {
        refill(nowNanos);
        return tokens > 0;
    }

    void spend(int ids) {
        tokens -= ids;
    }

    /** How long until a request may be admitted again; 0 when it may now. */
    long nanosUntilAvailable(long nowNanos) {
        refill(nowNanos);
        return tokens > 0 ? 0 : (long) Math.ceil((1 - tokens) / idsPerNano);
    }

    private void refill(long nowNanos) {
        tokens = Math.min(burst, tokens + (nowNanos - refilledNanos) * idsPerNano);
        refilledNanos = nowNanos;
    }
}
