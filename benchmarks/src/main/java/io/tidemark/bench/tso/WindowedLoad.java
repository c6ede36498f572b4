package io.tidemark.bench.tso;

import io.tidemark.bench.progress.CompletedWork;

/**
 * A client's stream of BEGIN + COMMIT pairs, as a {@link TsoRun} stops it and waits for what is in flight; its unit
 * of work is a pair that committed.
 */
interface WindowedLoad extends CompletedWork {

    /** Sends no further pair. */
    void stop();

    /** Pairs sent and not yet completed. */
    long inFlight();
}
