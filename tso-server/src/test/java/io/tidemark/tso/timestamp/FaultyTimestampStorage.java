package io.tidemark.tso.timestamp;

import io.tidemark.certificate.DecisionKey;
import java.io.IOException;

/** An in-memory timestamp bound whose next claims can be made to fail or to race another TSO's claim. */
final class FaultyTimestampStorage implements TimestampStorage {

    private final InMemoryTimestampStorage bound = new InMemoryTimestampStorage();
    private int failuresLeft;
    private long racingClaim;

    /** The next {@code claims} calls of {@link #advanceBound} fail without effect, as an unreachable table does. */
    synchronized void failNextClaims(int claims) {
        failuresLeft = claims;
    }

    /** Before the next claim, another TSO moves the bound by {@code span} (its last background claim). */
    synchronized void raceNextClaim(long span) {
        racingClaim = span;
    }

    @Override
    public long readBound() {
        return bound.readBound();
    }

    @Override
    public long readEpoch() {
        return bound.readEpoch();
    }

    @Override
    public void recordDecisionKey(DecisionKey key) {
        bound.recordDecisionKey(key);
    }

    @Override
    public void advanceBound(long expected, long newBound, long epoch) throws IOException {
        synchronized (this) {
            if (failuresLeft > 0) {
                failuresLeft--;
                throw new IOException("injected failure: the timestamp table is unavailable");
            }
            if (racingClaim > 0) {
                long current = bound.readBound();
                bound.advanceBound(current, current + racingClaim, bound.readEpoch());
                racingClaim = 0;
            }
        }
        bound.advanceBound(expected, newBound, epoch);
    }
}
