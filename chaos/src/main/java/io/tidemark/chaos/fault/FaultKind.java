package io.tidemark.chaos.fault;

import java.io.IOException;
import java.util.Random;

/** A kind of fault a scenario injects: the in-process ones ({@link Fault}) and those between processes. */
public interface FaultKind {

    /** What it does, in a few words, for the fault log and reports. */
    String description();

    /** Injects the fault once (and undoes it, for a partition or a pause); returns what happened. */
    String inject(FaultTarget target, Random random) throws Exception;

    /**
     * The fault it is a variant of (a partition of some length is a variant of the partition): a lane injects each
     * fault once per round, one variant after the other.
     */
    default String family() {
        return description();
    }

    /** Whether it cuts processes apart, which needs a network namespace ({@code ProcessNetwork}). */
    default boolean partition() {
        return false;
    }

    /** Sets up what the fault needs before the clients start (most need nothing). */
    default void prepare(FaultTarget target) throws IOException {
    }
}
