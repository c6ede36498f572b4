package io.tidemark.client.tso;

import io.tidemark.config.HostAndPort;

import java.util.concurrent.CompletableFuture;

/** A TSO at a fixed address ({@code tidemark.client.tso.address}); a failover must keep that address. */
final class StaticTsoAddress implements TsoAddressSource {

    private final HostAndPort address;

    StaticTsoAddress(HostAndPort address) {
        this.address = address;
    }

    @Override
    public CompletableFuture<HostAndPort> resolve(boolean fresh) {
        return CompletableFuture.completedFuture(address);
    }

    @Override
    public String describe() {
        return "the TSO at " + address;
    }

    @Override
    public void close() {
        // Nothing to release.
    }
}
