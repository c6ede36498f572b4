package io.tidemark.chaos.fault;

import java.io.IOException;
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

    /** Stops injecting; a fault in progress finishes first. */
    @Override
    void close() throws IOException, InterruptedException;
}
