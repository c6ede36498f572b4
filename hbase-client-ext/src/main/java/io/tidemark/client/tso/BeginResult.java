package io.tidemark.client.tso;

/** The TSO's answer to a BEGIN: a start timestamp, and the incarnation that handed it out. */
public final class BeginResult {

    private final long startTimestamp;
    private final TsoIncarnation incarnation;

    public BeginResult(long startTimestamp, TsoIncarnation incarnation) {
        this.startTimestamp = startTimestamp;
        this.incarnation = incarnation;
    }

    public long startTimestamp() {
        return startTimestamp;
    }

    /** The incarnation whose connection answered: the transaction follows its commit mode, level and epoch. */
    public TsoIncarnation incarnation() {
        return incarnation;
    }

    @Override
    public String toString() {
        return "BEGIN@" + startTimestamp + " from " + incarnation;
    }
}
