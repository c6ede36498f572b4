package io.tidemark.chaos.check;

/**
 * What really happened to a transaction, settled from the store after the run.
 *
 * @param commitTimestamp the commit timestamp when {@link Fate#COMMITTED}, else 0
 * @param version where its cells are stored: a generic writer's start timestamp, a fast-path write's version; 0 when
 *        unknown
 * @param evidence how it was settled, for reports
 */
public record Outcome(Fate fate, long commitTimestamp, long version, String evidence) {

    /** The three possible settlements. */
    public enum Fate {
        COMMITTED,
        NOT_COMMITTED,
        /** The store no longer shows it (compaction may have collected it) and the client did not know. */
        UNDETERMINED
    }

    static Outcome committed(long commitTimestamp, long version, String evidence) {
        return new Outcome(Fate.COMMITTED, commitTimestamp, version, evidence);
    }

    static Outcome notCommitted(long version, String evidence) {
        return new Outcome(Fate.NOT_COMMITTED, 0, version, evidence);
    }

    static Outcome undetermined(long version, String evidence) {
        return new Outcome(Fate.UNDETERMINED, 0, version, evidence);
    }

    public boolean isCommitted() {
        return fate == Fate.COMMITTED;
    }

    @Override
    public String toString() {
        return switch (fate) {
            case COMMITTED -> "committed at " + commitTimestamp + " (" + evidence + ")";
            case NOT_COMMITTED -> "not committed (" + evidence + ")";
            case UNDETERMINED -> "undetermined (" + evidence + ")";
        };
    }
}
