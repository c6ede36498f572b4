package io.tidemark.client.tso;

/**
 * The TSO's answer to a BEGIN: a start timestamp, the commit token that the transaction's COMMIT must carry, and the
 * incarnation that handed them out.
 */
public final class BeginResult {

    private final long startTimestamp;
    private final long commitToken;
    private final TsoIncarnation incarnation;

    public BeginResult(long startTimestamp, long commitToken, TsoIncarnation incarnation) {
        this.startTimestamp = startTimestamp;
        this.commitToken = commitToken;
        this.incarnation = incarnation;
    }

    public long startTimestamp() {
        return startTimestamp;
    }

    /** Proves to the TSO that this client began the transaction; pass it to {@link TsoClient#commit}. */
    public long commitToken() {
        return commitToken;
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
