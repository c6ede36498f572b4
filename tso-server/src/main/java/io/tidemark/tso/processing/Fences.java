package io.tidemark.tso.processing;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.CommitRequest;
import io.tidemark.protocol.ErrorCode;
import io.tidemark.tso.conflict.ConflictMap;
import io.tidemark.tso.conflict.KeyedHash;
import io.tidemark.writeset.WriteSetIds;

import java.util.Set;

/**
 * Fences (docs/wire-protocol.md): which COMMIT is one, who may raise one, and where the TSO records it.
 *
 * <p>A fence is the COMMIT whose write set is the single id {@link WriteSetIds#fence} of the single table it names.
 * Only clients allowed by {@code tidemark.tso.fence.allowed-clients} may raise one: a fence aborts every running
 * transaction that writes the table, so it is an administrator's act (DDL, bulk loads, conversions). The TSO records a
 * fence under a key only it can compute (a keyed hash of the table id under a secret of the incarnation), never under
 * the public fence id: an ordinary write set that carries a table's fence id is just a write set, and cannot fence
 * the table.
 */
public final class Fences {

    private final KeyedHash keys;
    private final Set<Long> allowedIdentities;

    /**
     * @param keys the secret keyed hash fence keys come from
     * @param allowedIdentities the identities (as {@link CommitTokens} computes them) allowed to raise fences
     */
    public Fences(KeyedHash keys, Set<Long> allowedIdentities) {
        this.keys = keys;
        this.allowedIdentities = Set.copyOf(allowedIdentities);
    }

    /** Whether {@code request} is a fence. */
    static boolean isFence(CommitRequest request) {
        return request.writeSet().length == 1 && request.tableIds().length == 1
                && request.writeSet()[0] == WriteSetIds.fence(request.tableIds()[0]);
    }

    /** Whether the client {@code identity} may raise fences. */
    boolean mayFence(long identity) {
        return allowedIdentities.contains(identity);
    }

    /** The answer to a fence from a client that may not raise one; nothing is recorded. */
    static InvalidRequestException refusal(CommitRequest fence) {
        return new InvalidRequestException(fence.requestId(), ErrorCode.NOT_AUTHORIZED, "this client may not raise"
                + " fences: a fence aborts every running transaction that writes its table, so only the clients named"
                + " by the TSO's " + TidemarkConfig.TSO_FENCE_ALLOWED_CLIENTS + " may");
    }

    /** Records the fence committed at {@code commitTimestamp}. */
    void record(ConflictMap conflictMap, CommitRequest fence, long commitTimestamp) {
        conflictMap.record(keys.hash(fence.tableIds()[0]), commitTimestamp);
    }

    /**
     * What the map knows about fences on {@code tableIds} after {@code start}: {@code WRITTEN} when one was raised
     * after it, {@code FORGOTTEN} when the map cannot tell for one of them.
     */
    ConflictMap.Recall raisedAfter(ConflictMap conflictMap, long[] tableIds, long start) {
        ConflictMap.Recall result = ConflictMap.Recall.NOT_WRITTEN;
        for (int i = 0; i < tableIds.length && result != ConflictMap.Recall.WRITTEN; i++) {
            result = result.and(conflictMap.check(keys.hash(tableIds[i]), start));
        }
        return result;
    }
}
