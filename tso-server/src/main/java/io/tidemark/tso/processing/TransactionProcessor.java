package io.tidemark.tso.processing;

import io.netty.channel.ChannelHandlerContext;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.AbortReason;
import io.tidemark.protocol.AbortedReply;
import io.tidemark.protocol.CommitRequest;
import io.tidemark.protocol.ErrorCode;
import io.tidemark.timestamp.Timestamps;
import io.tidemark.tso.TsoMetrics;
import io.tidemark.tso.conflict.ConflictMap;
import io.tidemark.tso.timestamp.TimestampOracle;

/**
 * BEGIN and COMMIT: timestamps plus first-committer-wins conflict detection. The single writer of the oracle and the
 * conflict map: every call comes from the one event loop, so no state here is locked.
 *
 * <p>A COMMIT is checked in this order, so that nothing it carries touches the conflict map unless the TSO would
 * commit it: the request is well formed; its write set is within the cap; it began in this incarnation (else
 * {@code STALE_EPOCH}, which is harmless whoever sent it); it carries the commit token issued with its start
 * timestamp to this client ({@link CommitTokens}); only then the low watermark and the conflict check.
 */
public final class TransactionProcessor {

    private final TimestampOracle oracle;
    private final ConflictMap conflictMap;
    private final CommitCompletion completion;
    private final CommitTokens tokens;
    private final int maxWriteSet;
    private final TsoMetrics metrics;
    private final long epoch;

    public TransactionProcessor(TimestampOracle oracle, ConflictMap conflictMap, CommitCompletion completion,
                                CommitTokens tokens, int maxWriteSet, TsoMetrics metrics) {
        this.oracle = oracle;
        this.conflictMap = conflictMap;
        this.completion = completion;
        this.tokens = tokens;
        this.maxWriteSet = maxWriteSet;
        this.metrics = metrics;
        this.epoch = oracle.epoch();
    }

    /** The tokens of this incarnation, also for identifying clients by their certificates. */
    public CommitTokens tokens() {
        return tokens;
    }

    /** @param clientIdentity who asks ({@link CommitTokens#ANONYMOUS} without a client certificate) */
    public void begin(ChannelHandlerContext client, long requestId, long clientIdentity) {
        // The request was decoded just now, on this same event loop: this is when it arrived, for the latency metric.
        long receivedNanos = System.nanoTime();
        long start = oracle.next();
        metrics.begins().inc();
        completion.begun(client, requestId, start, tokens.issue(start, clientIdentity), receivedNanos);
    }

    /** @param clientIdentity who asks ({@link CommitTokens#ANONYMOUS} without a client certificate) */
    public void commit(ChannelHandlerContext client, CommitRequest request, long clientIdentity) {
        long receivedNanos = System.nanoTime();
        long start = request.startTimestamp();
        validate(request);
        AbortReason abort = null;
        if (start <= epoch) {
            abort = AbortReason.STALE_EPOCH;
        } else if (!tokens.isValid(start, clientIdentity, request.commitToken())) {
            metrics.notAuthorizedCommits().inc();
            throw new InvalidRequestException(request.requestId(), ErrorCode.NOT_AUTHORIZED, "COMMIT of start"
                    + " timestamp " + start + " refused: its commit token is not the one this TSO issued with that"
                    + " timestamp to this client (a client may only commit transactions it began)");
        } else if (start <= conflictMap.lowWatermark()) {
            abort = AbortReason.BELOW_LOW_WATERMARK;
        } else if (conflictMap.conflicts(request.writeSet(), start)) {
            abort = AbortReason.CONFLICT;
        }
        if (abort != null) {
            metrics.aborts(abort).inc();
            client.write(new AbortedReply(request.requestId(), start, abort), client.voidPromise());
            metrics.commitAnswered(receivedNanos);
            return;
        }
        long commit = oracle.next();
        conflictMap.record(request.writeSet(), commit);
        completion.committed(client, request.requestId(), start, commit, receivedNanos);
    }

    private void validate(CommitRequest request) {
        long start = request.startTimestamp();
        if (!Timestamps.isTsoTimestamp(start)) {
            throw new InvalidRequestException(request.requestId(), ErrorCode.MALFORMED, "start timestamp " + start
                    + " is not a TSO timestamp (a positive multiple of " + Timestamps.TSO_STEP + ")");
        }
        if (start > oracle.lastIssued()) {
            throw new InvalidRequestException(request.requestId(), ErrorCode.MALFORMED, "start timestamp " + start
                    + " was never handed out (latest is " + oracle.lastIssued() + ")");
        }
        if (request.writeSet().length == 0 && request.tableIds().length == 0) {
            // An empty write set with table ids is a transaction whose writes are all conflict-free.
            throw new InvalidRequestException(request.requestId(), ErrorCode.MALFORMED,
                    "COMMIT that names no write and no table: a read-only transaction commits without the TSO");
        }
        if (request.writeSet().length > maxWriteSet || request.tableIds().length > maxWriteSet) {
            metrics.oversizedCommits().inc();
            throw new InvalidRequestException(request.requestId(), ErrorCode.WRITE_SET_TOO_LARGE, "COMMIT of start"
                    + " timestamp " + start + " carries " + request.writeSet().length + " write-set ids and "
                    + request.tableIds().length + " table ids; this TSO accepts at most " + maxWriteSet + " of each ("
                    + TidemarkConfig.TSO_MAX_WRITE_SET + "): split the transaction, or use conflict level row");
        }
    }
}
