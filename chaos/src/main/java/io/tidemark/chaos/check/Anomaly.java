package io.tidemark.chaos.check;

/** One violation of what Tidemark promises, explained in plain words (keys, timestamps, values, who was told what). */
public record Anomaly(Kind kind, String explanation) {

    /** The kinds of anomaly, each one broken promise. */
    public enum Kind {
        /** A read returned an older committed value than its snapshot holds. */
        STALE_READ("stale read"),
        /** A read returned a value written by a transaction that never committed. */
        READ_OF_UNCOMMITTED_WRITE("read of an uncommitted write"),
        /** A read returned a value committed at or after its snapshot. */
        READ_FROM_THE_FUTURE("read of a write committed after the snapshot"),
        /** A read returned a value nobody wrote. */
        READ_OF_UNKNOWN_VALUE("read of a value nobody wrote"),
        /** The state read after the run differs from the committed writes replayed in commit order. */
        LOST_COMMITTED_WRITE("lost committed write"),
        /** Two committed transactions wrote the same key although neither saw the other's commit. */
        FIRST_COMMITTER_WINS_VIOLATED("first committer wins violated (lost update)"),
        /** A fast-path conditional write committed although its row was written after its read-for-update. */
        CONDITIONAL_WRITE_ON_CHANGED_ROW("conditional write committed on a changed row"),
        /** A scan left out rows (or columns) that its snapshot holds; what it did return was right. */
        SCAN_SKIPPED_ROWS("scan skipped rows of its snapshot"),
        /** One transaction read the same key twice (get, scan) and got two different answers. */
        SCAN_GET_DISAGREEMENT("scan and get disagree"),
        /** A client's later transaction or fast-path read did not see what the same client had committed before. */
        SESSION_ORDER_VIOLATED("a client did not see its own earlier commit"),
        /** A client was told committed, but the store says otherwise. */
        TOLD_COMMITTED_BUT_NOT_STORED("told committed, not stored as committed"),
        /** A client was told aborted, refused or not applied, but the store holds the write as committed. */
        TOLD_NOT_COMMITTED_BUT_STORED("told not committed, stored as committed"),
        /** The store holds a committed version that no operation of the history wrote, or wrote twice. */
        UNEXPLAINED_VERSION("committed version nobody wrote (applied twice?)"),
        /** The store contradicts itself (e.g. an invalidation marker next to shadow cells). */
        INCONSISTENT_STORE("store contradicts itself"),
        /** A TSO handed out a timestamp below one handed out before in real time: two TSOs answered at once. */
        TSO_ANSWERS_OUT_OF_ORDER("two TSOs answered at once (a timestamp went back in real time)"),
        /** The low watermark persisted in the commit table went down. */
        LOW_WATERMARK_WENT_DOWN("persisted low watermark went down");

        private final String title;

        Kind(String title) {
            this.title = title;
        }

        public String title() {
            return title;
        }
    }

    @Override
    public String toString() {
        return kind.title() + ": " + explanation;
    }
}
