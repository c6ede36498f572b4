package io.tidemark.tso.lease;

/** Told, once, that a held lease ended without {@link Lease#release()}: the TSO must stop serving at once. */
@FunctionalInterface
public interface LeaseLossListener {

    /** Called from a lease thread; {@code reason} is one line for the log and the exit message. */
    void leaseLost(String reason);
}
