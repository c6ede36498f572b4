package io.tidemark.client.tso;

import io.tidemark.config.HostAndPort;

import java.util.concurrent.CompletableFuture;

/** Where the TSO to connect to is: a fixed address, or the active TSO's lease in ZooKeeper. Thread-safe. */
interface TsoAddressSource extends AutoCloseable {

    /**
     * The address to connect to. {@code fresh} asks for the latest one (after a failed attempt: the TSO may have
     * failed over); otherwise a cached one will do. Completes exceptionally with {@link TsoUnavailableException}
     * when no address is known; never blocks the caller.
     */
    CompletableFuture<HostAndPort> resolve(boolean fresh);

    /** How the TSO is found, for messages: "the TSO at host:port", "the TSO named by the lease ...". */
    String describe();

    @Override
    void close();
}
