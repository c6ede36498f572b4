package io.tidemark.tso.timestamp;

import io.tidemark.certificate.DecisionKey;
import java.io.IOException;

/** Durable home of the timestamp upper bound: no TSO incarnation ever hands out a timestamp above it. */
public interface TimestampStorage {

    /** The persisted bound, or 0 when none was ever written. */
    long readBound() throws IOException;

    /**
     * Moves the bound from {@code expected} (0: never written) to {@code newBound}, atomically, and records
     * {@code epoch}, the epoch of the incarnation that claims, in the same step. Only the serving incarnation's claims
     * succeed, so the recorded epoch is always the newest incarnation's, stored before it hands out a timestamp:
     * region servers check a reader's claimed epoch against it (docs/security.md).
     *
     * @throws TimestampBoundLostException when the stored bound is not {@code expected}: another TSO moved it
     */
    void advanceBound(long expected, long newBound, long epoch) throws IOException;

    /** The epoch the newest claim recorded, or 0 when none did. */
    long readEpoch() throws IOException;

    /**
     * Records the decision key of the incarnation that holds the lease, before it answers a COMMIT: region servers and
     * the commit-record guard check its seals with it (docs/security.md).
     */
    void recordDecisionKey(DecisionKey key) throws IOException;
}
