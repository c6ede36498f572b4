package io.tidemark.committable;

/** A (start timestamp, commit timestamp) pair to be made durable. */
public final class CommitRecord {

    private final long startTimestamp;
    private final long commitTimestamp;

    public CommitRecord(long startTimestamp, long commitTimestamp) {
        if (commitTimestamp <= startTimestamp) {
            throw new IllegalArgumentException("commit timestamp " + commitTimestamp
                    + " must be above start timestamp " + startTimestamp);
        }
        this.startTimestamp = startTimestamp;
        this.commitTimestamp = commitTimestamp;
    }

    public long startTimestamp() {
        return startTimestamp;
    }

    public long commitTimestamp() {
        return commitTimestamp;
    }

    @Override
    public String toString() {
        return "CommitRecord{" + startTimestamp + "->" + commitTimestamp + '}';
    }
}
