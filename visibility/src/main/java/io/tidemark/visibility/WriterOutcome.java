package io.tidemark.visibility;

/**
 * What is known about the transaction that wrote a version: it committed at a timestamp, it never committed (rolled
 * back, crashed, invalidated: it never can), or it is pending (no decision known yet; it may still commit).
 * Committed and never-committed are final; pending is not, so it is never remembered ({@link DecidedWriters}).
 */
public final class WriterOutcome {

    /** The three outcomes. */
    public enum Kind {
        COMMITTED,
        NEVER_COMMITTED,
        PENDING
    }

    public static final WriterOutcome NEVER_COMMITTED = new WriterOutcome(Kind.NEVER_COMMITTED, 0);
    public static final WriterOutcome PENDING = new WriterOutcome(Kind.PENDING, 0);

    private final Kind kind;
    private final long commitTimestamp;
    private final boolean legacy;

    private WriterOutcome(Kind kind, long commitTimestamp, boolean legacy) {
        this.kind = kind;
        this.commitTimestamp = commitTimestamp;
        this.legacy = legacy;
    }

    private WriterOutcome(Kind kind, long commitTimestamp) {
        this(kind, commitTimestamp, false);
    }

    public static WriterOutcome committedAt(long commitTimestamp) {
        if (commitTimestamp <= 0) {
            throw new IllegalArgumentException("a commit timestamp is positive, was " + commitTimestamp);
        }
        return new WriterOutcome(Kind.COMMITTED, commitTimestamp);
    }

    /**
     * A legacy write ({@link Conversion}): stored outside transactions before the table became transactional, so
     * committed at its own version. HBase lets clients write at version 0, so unlike a TSO commit timestamp it may be
     * 0.
     */
    public static WriterOutcome legacyWriteAt(long version) {
        if (version < 0) {
            throw new IllegalArgumentException("an HBase version is not negative, was " + version);
        }
        return new WriterOutcome(Kind.COMMITTED, version, true);
    }

    public Kind kind() {
        return kind;
    }

    public boolean isCommitted() {
        return kind == Kind.COMMITTED;
    }

    public boolean isPending() {
        return kind == Kind.PENDING;
    }

    /** Whether this is a legacy write: committed at its own version, with no shadow cell and no commit record. */
    public boolean isLegacy() {
        return legacy;
    }

    /** Whether the outcome can never change (committed or never committed). */
    public boolean isFinal() {
        return kind != Kind.PENDING;
    }

    /** Whether the writer committed before {@code snapshot}, so that a reader starting there sees its writes. */
    public boolean isCommittedBefore(long snapshot) {
        return kind == Kind.COMMITTED && commitTimestamp < snapshot;
    }

    /** The commit timestamp; only for a committed writer. */
    public long commitTimestamp() {
        if (kind != Kind.COMMITTED) {
            throw new IllegalStateException("no commit timestamp: the writer is " + kind);
        }
        return commitTimestamp;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof WriterOutcome && ((WriterOutcome) o).kind == kind
                && ((WriterOutcome) o).commitTimestamp == commitTimestamp && ((WriterOutcome) o).legacy == legacy;
    }

    @Override
    public int hashCode() {
        return kind.hashCode() * 31 + Long.hashCode(commitTimestamp);
    }

    @Override
    public String toString() {
        return kind == Kind.COMMITTED ? (legacy ? "LEGACY@" : "COMMITTED@") + commitTimestamp : kind.name();
    }
}
