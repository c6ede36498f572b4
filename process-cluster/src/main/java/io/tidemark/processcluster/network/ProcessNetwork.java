package io.tidemark.processcluster.network;

import io.tidemark.processcluster.Member;

import java.io.IOException;
import java.util.List;

/**
 * How the cluster's processes reach each other. Every process listens on its own loopback address; where the network
 * can tell processes apart by their source address too, any two of them can be partitioned.
 */
public interface ProcessNetwork extends AutoCloseable {

    /** The command line that runs {@code command} as the process {@code member}. */
    List<String> launch(Member member, List<String> command) throws IOException;

    /** Null when {@link #cut} works here; otherwise why it does not, in a sentence. */
    String partitionsUnavailable();

    /**
     * Cuts {@code a} off from {@code b}: every packet between them is dropped, both ways, on connections either
     * side opened before or opens after.
     *
     * @throws UnsupportedOperationException when {@link #partitionsUnavailable()} says why not
     */
    void cut(Member a, Member b) throws IOException;

    /** Undoes {@link #cut} of the same two processes (in either order); nothing when they were not cut. */
    void heal(Member a, Member b) throws IOException;

    /** Undoes every cut. */
    void healAll() throws IOException;

    /** Removes what the network set up for the processes (they must have ended). */
    @Override
    void close();
}
