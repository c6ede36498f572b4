package io.tidemark.committable;

/** What the commit table says about one start timestamp. */
public final class CommitState {

    /** The three things a commit record can say. */
    public enum Kind {
        /** No record: the transaction is pending, aborted, or already finished its post-commit. */
        ABSENT,
        /** The transaction committed at {@link #commitTimestamp()}. */
        COMMITTED,
        /** A reader invalidated the transaction: it can never commit. */
        INVALIDATED
    }

    private static final CommitState ABSENT = new CommitState(Kind.ABSENT, 0);
    private static final CommitState INVALIDATED = new CommitState(Kind.INVALIDATED, 0);

    private final Kind kind;
    private final long commitTimestamp;

    private CommitState(Kind kind, long commitTimestamp) {
        this.kind = kind;
        this.commitTimestamp = commitTimestamp;
    }

    public static CommitState absent() {
        return ABSENT;
    }

    public static CommitState invalidated() {
        return INVALIDATED;
    }

    public static CommitState committed(long commitTimestamp) {
        return new CommitState(Kind.COMMITTED, commitTimestamp);
    }

    public Kind kind() {
        return kind;
    }

    public boolean isCommitted() {
        return kind == Kind.COMMITTED;
    }

    public boolean isInvalidated() {
        return kind == Kind.INVALIDATED;
    }

    public boolean isAbsent() {
        return kind == Kind.ABSENT;
    }

    /** Only meaningful when {@link #isCommitted()}. */
    public long commitTimestamp() {
        if (kind != Kind.COMMITTED) {
            throw new IllegalStateException("no commit timestamp: the record is " + kind);
        }
        return commitTimestamp;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof CommitState)) {
            return false;
        }
        CommitState other = (CommitState) o;
        return kind == other.kind && commitTimestamp == other.commitTimestamp;
    }

    @Override
    public int hashCode() {
        return kind.hashCode() * 31 + Long.hashCode(commitTimestamp);
    }

    @Override
    public String toString() {
        return kind == Kind.COMMITTED ? "COMMITTED@" + commitTimestamp : kind.name();
    }
}
