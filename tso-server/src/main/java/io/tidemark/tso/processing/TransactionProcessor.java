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
import io.tidemark.writeset.WriteSetIds;

/**
 * BEGIN and COMMIT: timestamps plus first-committer-wins conflict detection. The single writer of the oracle and the
 * conflict map: every call comes from the one event loop, so no state here is locked.
 *
 * <p>A COMMIT is checked in this order, so that nothing it carries touches the conflict map unless the TSO would
 * commit it: the request is well formed; its write set is within the cap; it began in this incarnation (else
 * {@code STALE_EPOCH}, which is harmless whoever sent it); it carries the commit token issued with its start
 * timestamp to this client ({@link CommitTokens}); it is younger than the transaction timeout, if one is set (else
 * {@code TIMED_OUT}); only then the low watermark, the fences of the tables it names (else {@code FENCED}) and the
 * conflict check. The low watermark rises to every start timestamp the timeout expired, so compaction and the
 * sweeper need not wait for transactions that can no longer commit.
 */
public final class TransactionProcessor {

    private final TimestampOracle oracle;
    private final ConflictMap conflictMap;
    private final CommitCompletion completion;
    private final CommitTokens tokens;
    private final int maxWriteSet;
    private final TsoMetrics metrics;
    private final long epoch;
    private final TransactionTimeout timeout;

    /** @param transactionTimeoutMs how long a transaction may run before its COMMIT is refused; 0 for no limit */
    public TransactionProcessor(TimestampOracle oracle, ConflictMap conflictMap, CommitCompletion completion,
                                CommitTokens tokens, int maxWriteSet, long transactionTimeoutMs, TsoMetrics metrics) {
        this.oracle = oracle;
        this.conflictMap = conflictMap;
        this.completion = completion;
        this.tokens = tokens;
        this.maxWriteSet = maxWriteSet;
        this.metrics = metrics;
        this.epoch = oracle.epoch();
        this.timeout = new TransactionTimeout(transactionTimeoutMs, System::nanoTime);
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
        timeout.begun(start);
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
        } else if (start <= expireTimedOut()) {
            abort = AbortReason.TIMED_OUT;
        } else if (start <= conflictMap.lowWatermark()) {
            abort = AbortReason.BELOW_LOW_WATERMARK;
        } else if (fencedAfter(request.tableIds(), start)) {
            abort = AbortReason.FENCED;
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

    /** Whether a fence on one of the tables was committed after {@code start} (see {@link WriteSetIds#fence}). */
    private boolean fencedAfter(long[] tableIds, long start) {
        for (long table : tableIds) {
            if (conflictMap.lastCommit(WriteSetIds.fence(table)) > start) {
                return true;
            }
        }
        return false;
    }

    /** The largest start timestamp the timeout expired, which the low watermark then covers. */
    private long expireTimedOut() {
        long bound = timeout.expiredBound();
        conflictMap.raiseLowWatermark(bound);
        return bound;
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
