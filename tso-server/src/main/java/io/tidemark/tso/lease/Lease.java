package io.tidemark.tso.lease;

/** The right to serve, held by at most one TSO of a timestamp table at a time. */
public interface Lease {

    /**
     * Whether the holder may still send replies: false once the lease ran out without a renewal, was taken over or
     * released. Cheap (a volatile read and a clock read): the TSO asks before every flush of replies.
     */
    boolean isValid();

    /**
     * How long the lease stays valid without a further renewal: 0 once it ended, {@link Long#MAX_VALUE} for a lease
     * that never runs out by itself. For monitoring only; {@link #isValid()} decides.
     */
    default long remainingNanos() {
        return isValid() ? Long.MAX_VALUE : 0;
    }

    /**
     * Gives the lease up; call once this TSO no longer serves. The next TSO then need not wait the lease out.
     * Idempotent; never throws.
     */
    void release();
}
