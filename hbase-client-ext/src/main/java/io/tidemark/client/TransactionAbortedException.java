package io.tidemark.client;

import io.tidemark.protocol.AbortReason;
import org.jspecify.annotations.Nullable;

/** The transaction did not commit; none of its writes will ever be visible. {@link #reason()} says why. */
public class TransactionAbortedException extends TransactionException {

    private static final long serialVersionUID = 1L;

    /** Why a transaction aborted, and what to do about it. */
    public enum Reason {
        CONFLICT(AbortReason.CONFLICT,
                "another transaction committed a write to the same cell (or row, at conflict level ROW) after this"
                + " one started", "retry the transaction"),
        BELOW_LOW_WATERMARK(AbortReason.BELOW_LOW_WATERMARK,
                "the transaction ran so long that the TSO no longer remembers the commits it could"
                + " conflict with", "retry it, and keep transactions short"),
        STALE_EPOCH(AbortReason.STALE_EPOCH, "the TSO restarted (or failed over) after the transaction began",
                "retry the transaction"),
        TIMED_OUT(AbortReason.TIMED_OUT,
                "the transaction ran longer than the TSO's transaction timeout (tidemark.tso.transaction-timeout-ms)",
                "retry it, and keep transactions shorter than the timeout (split long ones)"),
        FENCED(AbortReason.FENCED,
                "a fence was raised on a table this transaction writes after it began (a schema change, say)",
                "retry the transaction: it then sees the table as it is after the fence"),
        INVALIDATED(AbortReason.INVALIDATED,
                "a reader invalidated this transaction before its commit record was written (the reader could"
                + " not wait for an undecided writer)", "retry the transaction"),
        TSO_UNAVAILABLE(null, "the TSO did not answer the commit request, so the transaction invalidated itself to make"
                + " the outcome certain", "check that the TSO runs, then retry"),
        COMMIT_TABLE_UNAVAILABLE(null,
                "the commit record could not be written, so the transaction invalidated itself to"
                + " make the outcome certain", "check the HBase commit table, then retry"),
        COMMIT_TABLE_MISMATCH(null,
                "this process is configured with other commit-table salt buckets than the commit table"
                + " records, so it writes no commit record, and no other process writes one for it",
                "set tidemark.commit-table.regions as the cause says, in every client, TSO and region server"),
        NEWER_FAST_PATH_WRITE(null, "a fast-path (single-row) transaction committed a write to a row this transaction"
                + " writes, after this transaction started", "retry the transaction"),
        SNAPSHOT_TOO_OLD(null, "the transaction's snapshot is at or below a low watermark that compaction has already"
                + " collected versions with, so a read could have returned wrong data and was refused",
                "retry with a new transaction, and keep read-only transactions short"),
        READ_CHANGED(null, "the row this transaction read before it began (lazy begin, no BEGIN before the read) was"
                + " written by another transaction before it began, so no snapshot holds what it read",
                "retry the transaction"),
        WRITE_FAILED(null, "an asynchronous write of the transaction (AsyncTTable) failed, so the transaction cannot"
                + " commit what it was asked to write; the exception's cause is the write's failure",
                "fix what the cause names (a missing column family, a closed table, an unreachable region), then"
                + " retry the transaction");

        /** The TSO's reason this one reports, or null for a reason only the client finds. */
        private final @Nullable AbortReason tsoReason;
        private final String description;
        private final String advice;

        Reason(@Nullable AbortReason tsoReason, String description, String advice) {
            this.tsoReason = tsoReason;
            this.description = description;
            this.advice = advice;
        }

        /** The reason that reports the TSO's {@code tsoReason} to the application. */
        static Reason of(AbortReason tsoReason) {
            for (Reason reason : values()) {
                if (reason.tsoReason == tsoReason) {
                    return reason;
                }
            }
            throw new IllegalStateException("no client abort reason reports the TSO's " + tsoReason);
        }

        public String description() {
            return description;
        }

        public String advice() {
            return advice;
        }
    }

    private final long startTimestamp;
    private final Reason reason;

    public TransactionAbortedException(long startTimestamp, Reason reason, @Nullable Throwable cause) {
        super("transaction " + startTimestamp + " aborted (" + reason + "): " + reason.description + "; "
                + reason.advice, cause);
        this.startTimestamp = startTimestamp;
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }

    public long startTimestamp() {
        return startTimestamp;
    }
}
