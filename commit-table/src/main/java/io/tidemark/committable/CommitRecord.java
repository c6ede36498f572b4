package io.tidemark.committable;

import org.apache.hadoop.hbase.client.Durability;

import java.util.Objects;

/** A (start timestamp, commit timestamp) pair to be made durable, and the WAL durability to write it with. */
public final class CommitRecord {

    private final long startTimestamp;
    private final long commitTimestamp;
    private final Durability durability;

    /** A record written with the commit table's own durability. */
    public CommitRecord(long startTimestamp, long commitTimestamp) {
        this(startTimestamp, commitTimestamp, Durability.USE_DEFAULT);
    }

    /**
     * @param durability how the record's write reaches the WAL; {@link Durability#USE_DEFAULT} follows the commit
     *     table. Where records share one HBase batch, the strongest durability in it applies to all.
     */
    public CommitRecord(long startTimestamp, long commitTimestamp, Durability durability) {
        Objects.requireNonNull(durability, "durability");
        if (commitTimestamp <= startTimestamp) {
            throw new IllegalArgumentException("commit timestamp " + commitTimestamp
                    + " must be above start timestamp " + startTimestamp);
        }
        this.startTimestamp = startTimestamp;
        this.commitTimestamp = commitTimestamp;
        this.durability = durability;
    }

    public long startTimestamp() {
        return startTimestamp;
    }

    public long commitTimestamp() {
        return commitTimestamp;
    }

    public Durability durability() {
        return durability;
    }

    @Override
    public String toString() {
        return "CommitRecord{" + startTimestamp + "->" + commitTimestamp + '}';
    }
}
