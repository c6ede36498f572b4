package io.tidemark.committable;

import io.tidemark.config.TidemarkConfig;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * The last moment at which a write of a commit record may still be sent to HBase. A writer takes it when it asks the
 * TSO to commit (a client, before it sends COMMIT; a batched-mode TSO, when it decides), so every commit-record write
 * of a transaction ends within {@link TidemarkConfig#CLIENT_COMMIT_RECORD_TIMEOUT_MS} of that point. The commit-table
 * sweeper relies on it: once a transaction's start is at or below the persisted low watermark, the TSO refuses its
 * COMMIT, so its last possible commit-record write is over one timeout after the sweeper read that watermark
 * (docs/coprocessors.md, "Commit-table sweeper").
 *
 * <p>Measured on this JVM's monotonic clock, so no two machines' clocks are ever compared.
 */
public final class CommitRecordDeadline {

    /**
     * No deadline: for tools and tests that write records of transactions no sweeper will touch. Writers of live
     * transactions never use it.
     */
    public static final CommitRecordDeadline NONE = new CommitRecordDeadline(0, false);

    private final long deadlineNanos;
    private final boolean bounded;

    private CommitRecordDeadline(long deadlineNanos, boolean bounded) {
        this.deadlineNanos = deadlineNanos;
        this.bounded = bounded;
    }

    /** The deadline {@code timeoutMs} from now. */
    public static CommitRecordDeadline afterMillis(long timeoutMs) {
        if (timeoutMs < 1) {
            throw new IllegalArgumentException("a commit-record timeout must be at least 1 ms, was " + timeoutMs);
        }
        return new CommitRecordDeadline(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs), true);
    }

    public boolean isBounded() {
        return bounded;
    }

    public boolean hasPassed() {
        return bounded && System.nanoTime() - deadlineNanos >= 0;
    }

    /**
     * Refuses a write once the deadline has passed.
     *
     * @throws IOException the deadline has passed: no write may start any more, and the record's outcome is settled
     *     the way every unknown outcome is (by invalidating the transaction)
     */
    public void checkWriteMayStart() throws IOException {
        if (hasPassed()) {
            throw passed();
        }
    }

    /**
     * How long a write started now may take, in whole milliseconds (at least 1), for HBase's operation and RPC
     * timeouts; {@link Integer#MAX_VALUE} without a deadline.
     *
     * @throws IOException the deadline has passed: no write may start any more, and the record's outcome is settled
     *     the way every unknown outcome is (by invalidating the transaction)
     */
    public int remainingMillisForWrite() throws IOException {
        if (!bounded) {
            return Integer.MAX_VALUE;
        }
        long remainingNanos = deadlineNanos - System.nanoTime();
        if (remainingNanos <= 0) {
            throw passed();
        }
        return (int) Math.min(Integer.MAX_VALUE, Math.max(1, TimeUnit.NANOSECONDS.toMillis(remainingNanos)));
    }

    private static IOException passed() {
        return new IOException("the commit-record deadline passed before the record could be written"
                + " (" + TidemarkConfig.CLIENT_COMMIT_RECORD_TIMEOUT_MS + " after the commit was requested)");
    }

    /** The earlier of the two deadlines: a write carrying several records must meet each one's. */
    public CommitRecordDeadline earlier(CommitRecordDeadline other) {
        if (!bounded) {
            return other;
        }
        if (!other.bounded) {
            return this;
        }
        return deadlineNanos - other.deadlineNanos <= 0 ? this : other;
    }

    @Override
    public String toString() {
        return bounded ? "CommitRecordDeadline{in " + TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime())
                + " ms}" : "CommitRecordDeadline{none}";
    }
}
