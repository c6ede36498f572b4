package io.tidemark.bench.tso;

/** A client's stream of BEGIN + COMMIT pairs, as a {@link TsoRun} stops it and waits for what is in flight. */
interface WindowedLoad {

    /** Sends no further pair. */
    void stop();

    /** Pairs sent and not yet completed. */
    long inFlight();
}
