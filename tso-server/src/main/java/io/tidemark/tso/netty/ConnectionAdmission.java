package io.tidemark.tso.netty;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.ErrorCode;
import io.tidemark.protocol.ErrorReply;
import io.tidemark.protocol.MessageEncoder;
import io.tidemark.tso.TsoMetrics;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Admits client connections up to the maximum and refuses the excess the moment it is accepted, before it costs more
 * than its socket: idle connections can no longer use up the process's file descriptors and lock every client out.
 * A refused plaintext client gets one {@code ERROR OVERLOADED} saying why; a TLS client is just closed (it could not
 * read a plaintext answer). Refusals are logged once per burst.
 */
public final class ConnectionAdmission {

    private final int maxConnections;
    private final boolean tls;
    private final TsoMetrics metrics;
    private final ConnectionLogs logs;
    private final AtomicInteger open = new AtomicInteger();

    public ConnectionAdmission(int maxConnections, boolean tls, TsoMetrics metrics, ConnectionLogs logs) {
        this.maxConnections = maxConnections;
        this.tls = tls;
        this.metrics = metrics;
        this.logs = logs;
    }

    /** Counts {@code channel} in until it closes, or refuses and closes it when the maximum is reached. */
    boolean admit(Channel channel) {
        if (open.incrementAndGet() > maxConnections) {
            open.decrementAndGet();
            refuse(channel);
            return false;
        }
        channel.closeFuture().addListener(closed -> open.decrementAndGet());
        return true;
    }

    /** Connections admitted and still open. */
    public int open() {
        return open.get();
    }

    private void refuse(Channel channel) {
        metrics.refusedConnections().inc();
        String why = "the TSO has " + maxConnections + " client connections, its maximum ("
                + TidemarkConfig.TSO_MAX_CONNECTIONS + ")";
        logs.refused.warn("Refusing connection " + channel.remoteAddress() + ": " + why + ". If legitimate clients"
                + " need more, raise it together with the process's open-file limit (ulimit -n)");
        if (tls) {
            channel.close();
        } else {
            channel.writeAndFlush(MessageEncoder.frame(channel.alloc(), new ErrorReply(0, ErrorCode.OVERLOADED,
                    why + "; retry later"))).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
