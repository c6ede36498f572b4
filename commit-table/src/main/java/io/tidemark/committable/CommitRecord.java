package io.tidemark.committable;

import io.tidemark.certificate.Seal;
import org.apache.hadoop.hbase.client.Durability;
import org.jspecify.annotations.Nullable;

import java.util.Objects;

/**
 * A (start timestamp, commit timestamp) pair to be made durable, the WAL durability to write it with, and what the TSO
 * gave its committer with the decision (docs/security.md, "Only the TSO's decisions reach the commit table"): the
 * commit certificate stored with the record, which the commit-record guard checks, and the release token that lets
 * the committer remove the record after its post-commit. Both are null where no TSO sealed the decision (a commit
 * table of a version before certificates, tests of the commit table alone).
 */
public final class CommitRecord {

    private final long startTimestamp;
    private final long commitTimestamp;
    private final Durability durability;
    private final @Nullable Seal certificate;
    private final @Nullable Seal releaseToken;

    /** An unsealed record written with the commit table's own durability. */
    public CommitRecord(long startTimestamp, long commitTimestamp) {
        this(startTimestamp, commitTimestamp, Durability.USE_DEFAULT);
    }

    /** An unsealed record. */
    public CommitRecord(long startTimestamp, long commitTimestamp, Durability durability) {
        this(startTimestamp, commitTimestamp, durability, null, null);
    }

    /**
     * @param durability how the record's write reaches the WAL; {@link Durability#USE_DEFAULT} follows the commit
     *     table. Where records share one HBase batch, the strongest durability in it applies to all.
     * @param certificate the TSO's certificate of the decision, or null
     * @param releaseToken the TSO's token for removing the record, or null
     */
    public CommitRecord(long startTimestamp, long commitTimestamp, Durability durability, @Nullable Seal certificate,
            @Nullable Seal releaseToken) {
        Objects.requireNonNull(durability, "durability");
        if (commitTimestamp <= startTimestamp) {
            throw new IllegalArgumentException("commit timestamp " + commitTimestamp
                    + " must be above start timestamp " + startTimestamp);
        }
        this.startTimestamp = startTimestamp;
        this.commitTimestamp = commitTimestamp;
        this.durability = durability;
        this.certificate = certificate;
        this.releaseToken = releaseToken;
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

    /** The TSO's certificate of this decision, or null when none came with it. */
    public @Nullable Seal certificate() {
        return certificate;
    }

    /** The right to remove this record, or null when none came with it. */
    public @Nullable Seal releaseToken() {
        return releaseToken;
    }

    /**
     * Whether {@code stored}, what the commit table holds for this record's start timestamp, is this record: a write
     * refused because the row was taken (a re-sent write finding its first attempt's record, an invalidation that lost
     * to this record) still won when the stored decision is this commit. Only another decision (an invalidation, or
     * another commit timestamp) means it lost.
     */
    public boolean isRecordedAs(CommitState stored) {
        return stored.isCommitted() && stored.commitTimestamp() == commitTimestamp;
    }

    @Override
    public String toString() {
        return "CommitRecord{" + startTimestamp + "->" + commitTimestamp + '}';
    }
}
