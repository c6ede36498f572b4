package io.tidemark.tso.processing;

import io.netty.channel.ChannelHandlerContext;
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
 */
public final class TransactionProcessor {

    private final TimestampOracle oracle;
    private final ConflictMap conflictMap;
    private final CommitCompletion completion;
    private final TsoMetrics metrics;
    private final long epoch;

    public TransactionProcessor(TimestampOracle oracle, ConflictMap conflictMap, CommitCompletion completion,
                                TsoMetrics metrics) {
        this.oracle = oracle;
        this.conflictMap = conflictMap;
        this.completion = completion;
        this.metrics = metrics;
        this.epoch = oracle.epoch();
    }

    public void begin(ChannelHandlerContext client, long requestId) {
        // The request was decoded just now, on this same event loop: this is when it arrived, for the latency metric.
        long receivedNanos = System.nanoTime();
        long start = oracle.next();
        metrics.begins().inc();
        completion.begun(client, requestId, start, receivedNanos);
    }

    public void commit(ChannelHandlerContext client, CommitRequest request) {
        long receivedNanos = System.nanoTime();
        long start = request.startTimestamp();
        validate(request);
        AbortReason abort = null;
        if (start <= epoch) {
            abort = AbortReason.STALE_EPOCH;
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
        if (request.writeSet().length == 0) {
            throw new InvalidRequestException(request.requestId(), ErrorCode.MALFORMED,
                    "COMMIT with an empty write set: a read-only transaction commits without the TSO");
        }
    }
}
