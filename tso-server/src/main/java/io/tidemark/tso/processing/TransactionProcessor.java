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
import io.tidemark.tso.conflict.KeyedHash;
import org.jspecify.annotations.Nullable;

/**
 * BEGIN and COMMIT: timestamps plus first-committer-wins conflict detection. The single writer of the oracle and the
 * conflict map: every call comes from the one event loop, so no state here is locked.
 *
 * <p>A COMMIT is checked in this order, so that nothing it carries touches the conflict map unless the TSO would
 * commit it: the request is well formed; its write set is within the cap; it began in this incarnation (else
 * {@code STALE_EPOCH}, which is harmless whoever sent it); it carries the commit token issued with its start
 * timestamp to this client ({@link CommitTokens}); a fence comes from a client allowed to raise one ({@link Fences});
 * it is younger than the transaction timeout, if one is set (else {@code TIMED_OUT}); only then the low watermark,
 * whether its start timestamp already committed (refused: one transaction, one commit timestamp), the fences of the
 * tables it names (else {@code FENCED}) and the conflict check. Where the conflict map forgot what a check needs
 * (an evicted entry of the same bucket), the COMMIT aborts with {@code BELOW_LOW_WATERMARK}. The low watermark rises
 * to every start timestamp the timeout expired, so compaction and the sweeper need not wait for transactions that
 * can no longer commit.
 *
 * <p>A committed start timestamp is remembered in the conflict map like a written id, under a key only this
 * incarnation can compute ({@code commitMarkers}), with its commit timestamp: a second COMMIT of it is refused. Without
 * that, a client holding a transaction's token could commit it again with another write set and a second commit
 * timestamp, and readers, which judge every cell of a writer once, could see its second writes at the first commit
 * timestamp: half-visible.
 */
public final class TransactionProcessor {

    private final TimestampOracle oracle;
    private final ConflictMap conflictMap;
    private final CommitCompletion completion;
    private final CommitTokens tokens;
    private final Fences fences;
    private final KeyedHash commitMarkers;
    private final int maxWriteSet;
    private final TsoMetrics metrics;
    private final long epoch;
    private final TransactionTimeout timeout;

    /**
     * @param commitMarkers the secret keyed hash a committed start timestamp is remembered under
     * @param transactionTimeoutMs how long a transaction may run before its COMMIT is refused; 0 for no limit
     */
    public TransactionProcessor(TimestampOracle oracle, ConflictMap conflictMap, CommitCompletion completion,
                                CommitTokens tokens, Fences fences, KeyedHash commitMarkers, int maxWriteSet,
                                long transactionTimeoutMs, TsoMetrics metrics) {
        this.oracle = oracle;
        this.conflictMap = conflictMap;
        this.completion = completion;
        this.tokens = tokens;
        this.fences = fences;
        this.commitMarkers = commitMarkers;
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
        boolean fence = Fences.isFence(request);
        AbortReason abort = start <= epoch ? AbortReason.STALE_EPOCH : admit(request, fence, clientIdentity);
        if (abort != null) {
            metrics.aborts(abort).inc();
            client.write(new AbortedReply(request.requestId(), start, abort), client.voidPromise());
            metrics.commitAnswered(receivedNanos);
            return;
        }
        long commit = oracle.next();
        if (fence) {
            fences.record(conflictMap, request, commit);
        } else {
            conflictMap.record(request.writeSet(), commit);
        }
        conflictMap.record(commitMarkers.hash(start), commit);
        completion.committed(client, request.requestId(), start, commit, receivedNanos);
    }

    /**
     * Refuses (throws) a COMMIT its client may not send: a wrong commit token, a fence from a client not allowed to
     * raise one. Then the first reason it must abort, or null when it commits.
     */
    private @Nullable AbortReason admit(CommitRequest request, boolean fence, long clientIdentity) {
        long start = request.startTimestamp();
        if (!tokens.isValid(start, clientIdentity, request.commitToken())) {
            metrics.notAuthorizedCommits().inc();
            throw new InvalidRequestException(request.requestId(), ErrorCode.NOT_AUTHORIZED, "COMMIT of start"
                    + " timestamp " + start + " refused: its commit token is not the one this TSO issued with that"
                    + " timestamp to this client (a client may only commit transactions it began)");
        }
        if (fence && !fences.mayFence(clientIdentity)) {
            metrics.notAuthorizedFences().inc();
            throw Fences.refusal(request);
        }
        if (start <= expireTimedOut()) {
            return AbortReason.TIMED_OUT;
        }
        if (start <= conflictMap.lowWatermark()) {
            return AbortReason.BELOW_LOW_WATERMARK;
        }
        return checkAgainstMap(request, start);
    }

    /** Whether the start committed already, its tables were fenced or its writes conflict; null when none. */
    private @Nullable AbortReason checkAgainstMap(CommitRequest request, long start) {
        long marker = commitMarkers.hash(start);
        ConflictMap.Recall committed = conflictMap.check(marker, start);
        if (committed == ConflictMap.Recall.WRITTEN) {
            metrics.duplicateCommits().inc();
            throw new InvalidRequestException(request.requestId(), ErrorCode.MALFORMED, "start timestamp " + start
                    + " already committed (at " + conflictMap.lastCommit(marker) + "): a transaction commits once");
        }
        ConflictMap.Recall fenced = fences.raisedAfter(conflictMap, request.tableIds(), start);
        if (fenced == ConflictMap.Recall.WRITTEN) {
            return AbortReason.FENCED;
        }
        ConflictMap.Recall written = conflictMap.check(request.writeSet(), start);
        if (written == ConflictMap.Recall.WRITTEN) {
            return AbortReason.CONFLICT;
        }
        // The map forgot something this COMMIT needs to be checked against: as if below the low watermark.
        return committed.and(fenced).and(written) == ConflictMap.Recall.FORGOTTEN
                ? AbortReason.BELOW_LOW_WATERMARK : null;
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
