package io.tidemark.tso.timestamp;

import java.io.IOException;

/** Durable home of the timestamp upper bound: no TSO incarnation ever hands out a timestamp above it. */
public interface TimestampStorage {

    /** The persisted bound, or 0 when none was ever written. */
    long readBound() throws IOException;

    /**
     * Moves the bound from {@code expected} (0: never written) to {@code newBound}, atomically.
     *
     * @throws TimestampBoundLostException when the stored bound is not {@code expected}: another TSO moved it
     */
    void advanceBound(long expected, long newBound) throws IOException;
}
