package io.tidemark.tso.lease;

/** The right to serve, held by at most one TSO of a timestamp table at a time. */
public interface Lease {

    /**
     * Whether the holder may still send replies: false once the lease ran out without a renewal, was taken over or
     * released. Cheap (a volatile read and a clock read): the TSO asks before every flush of replies.
     */
    boolean isValid();

    /**
     * Gives the lease up; call once this TSO no longer serves. The next TSO then need not wait the lease out.
     * Idempotent; never throws.
     */
    void release();
}
