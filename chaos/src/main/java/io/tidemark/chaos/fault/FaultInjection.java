package io.tidemark.chaos.fault;

import java.io.IOException;
import java.util.List;
import java.util.Map;

/** What injects a run's faults: one thread picking at random ({@link FaultSchedule}), or lanes ({@link FaultLanes}). */
public interface FaultInjection extends AutoCloseable {

    /** Sets up what the faults need; before the clients start. */
    void prepare() throws IOException;

    /** Starts injecting. */
    void start() throws IOException;

    /** How many faults were injected (attempts that did nothing included). */
    int injected();

    /** How many of each kind, by {@link FaultKind#description()}. */
    Map<String, Integer> byKind();

    /**
     * What it has still to inject before a run has had every fault it exists for, in words: each kind not injected
     * yet, and each lane of a fixed number of rounds not through them; empty once it has injected them all.
     */
    List<String> notYetInjected();

    /** Whether a lane of a fixed number of rounds is not through them yet: the run's end waits for it. */
    boolean holdsEnd();

    /** Stops injecting; a fault in progress finishes first. */
    @Override
    void close() throws IOException, InterruptedException;
}
