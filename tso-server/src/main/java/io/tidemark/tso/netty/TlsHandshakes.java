package io.tidemark.tso.netty;

import io.netty.channel.Channel;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.DefaultThreadFactory;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * TLS on the TSO port: the server context, and the thread that does the handshakes' expensive work (key exchange, the
 * signature that proves the TSO's identity: about a millisecond each). The TLS engine hands that work out as tasks, and
 * Netty would run them on the event loop, where a flood of handshakes, which needs no certificate, would delay every
 * transaction; on a thread of their own they cost only CPU. Thread-safe.
 */
public final class TlsHandshakes implements AutoCloseable {

    private final SslContext context;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(
            new DefaultThreadFactory("tidemark-tso-tls", true));

    public TlsHandshakes(SslContext context) {
        this.context = context;
    }

    /**
     * A handler for {@code channel}, whose handshake work runs on the TLS thread; work left for a connection closed
     * meanwhile (a flood's clients do not wait for their handshakes) is dropped.
     */
    SslHandler newHandler(Channel channel) {
        return context.newHandler(channel.alloc(), task -> thread.execute(() -> {
            if (channel.isActive()) {
                task.run();
            }
        }));
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
