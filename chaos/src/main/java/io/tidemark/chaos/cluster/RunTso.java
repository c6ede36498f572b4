package io.tidemark.chaos.cluster;

import java.io.IOException;
import java.util.Random;

/** The TSO of one chaos run, whichever way it runs, and the faults it can suffer. */
public interface RunTso extends AutoCloseable {

    /** Starts it and returns once a TSO serves. */
    void start() throws IOException, InterruptedException;

    /** The {@code host:port} clients are pinned to; null when clients follow the TSO lease in ZooKeeper. */
    String pinnedAddress();

    /** The serving TSO stops in an orderly way and a new incarnation serves after it; returns what happened. */
    String restart(Random random) throws IOException, InterruptedException;

    /** {@code kill -9} of the serving TSO, and a standby takes over; returns what happened. */
    String failover() throws IOException, InterruptedException;

    /** After the faults, makes sure a TSO serves (the final reads need one). */
    void ensureServing() throws IOException, InterruptedException;

    @Override
    void close();
}
