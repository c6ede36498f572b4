package io.tidemark.tso.timestamp;

import java.io.IOException;

/** Another TSO moved the persisted timestamp bound: this one no longer owns its timestamps and must stop. */
public final class TimestampBoundLostException extends IOException {

    private static final long serialVersionUID = 1L;

    public TimestampBoundLostException(long expected, long newBound) {
        super("could not move the timestamp bound from " + expected + " to " + newBound
                + ": another TSO changed it first (two TSOs on the same timestamp table?)");
    }
}
