package io.tidemark.client;

import io.tidemark.client.tso.TsoIncarnation;
import org.jspecify.annotations.Nullable;

import java.util.concurrent.atomic.AtomicReference;

/**
 * The newest timestamp this client knows to be a safe snapshot for a read-only transaction, and when it was obtained.
 *
 * <p>Safe means: every transaction that got a commit timestamp below it is decided or resolvable by the read rule, and
 * no cell carries it as its version (a cell at a reader's own start timestamp would count as the reader's own write).
 * Three kinds of timestamps qualify: the commit timestamp of one of this client's commits (the TSO answers COMMIT
 * only after assigning it; in batched mode commit records become durable in commit-timestamp order, so every lower
 * commit is durable by then; in low-latency mode a reader invalidates a writer whose record is missing), the start
 * timestamp of a transaction begun read-only (it can never write), and the start timestamp of a transaction that
 * committed without writing. The TSO handed out each of them, so the fast path's region clocks treat them like any
 * other snapshot.
 *
 * <p>{@code obtainedNanos} is when the request that produced the timestamp was sent: every transaction whose commit
 * had completed by then is below the timestamp. Staleness is measured from it.
 */
final class RecentSnapshot {

    /** One safe timestamp, the incarnation that issued it, and when the request that produced it was sent. */
    static final class Entry {
        final long timestamp;
        final TsoIncarnation incarnation;
        final long obtainedNanos;

        Entry(long timestamp, TsoIncarnation incarnation, long obtainedNanos) {
            this.timestamp = timestamp;
            this.incarnation = incarnation;
            this.obtainedNanos = obtainedNanos;
        }
    }

    private final AtomicReference<Entry> newest = new AtomicReference<>();

    /** Offers a safe timestamp; the newest timestamp is kept (and, for one timestamp, the latest time). */
    void offer(long timestamp, TsoIncarnation incarnation, long obtainedNanos) {
        Entry offered = new Entry(timestamp, incarnation, obtainedNanos);
        newest.accumulateAndGet(offered, (current, candidate) -> current == null
                || candidate.timestamp > current.timestamp ? candidate : current);
    }

    /** The newest safe timestamp if it was obtained no longer than {@code staleness} before {@code nowNanos}. */
    @Nullable Entry within(Staleness staleness, long nowNanos) {
        Entry entry = newest.get();
        if (entry == null || staleness.isNone() || nowNanos - entry.obtainedNanos > staleness.maxNanos()) {
            return null;
        }
        return entry;
    }
}
