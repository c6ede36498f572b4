package io.tidemark.tso.netty;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.ScheduledFuture;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.ErrorCode;
import io.tidemark.protocol.ProtocolException;
import io.tidemark.tso.TsoMetrics;
import org.jspecify.annotations.Nullable;

import java.util.concurrent.TimeUnit;

/**
 * Closes a connection that has not completed its handshake (TLS, when enabled, and HELLO) within the timeout, so that
 * connections that send nothing, or one byte a second, cannot hold a slot for long. Removed from the pipeline once
 * HELLO is accepted, which cancels it.
 */
final class HandshakeTimeout extends ChannelInboundHandlerAdapter {

    private final int timeoutMs;
    private final TsoMetrics metrics;
    private final ConnectionLogs logs;
    private @Nullable ScheduledFuture<?> timer;

    HandshakeTimeout(int timeoutMs, TsoMetrics metrics, ConnectionLogs logs) {
        this.timeoutMs = timeoutMs;
        this.metrics = metrics;
        this.logs = logs;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        timer = ctx.executor().schedule(() -> expire(ctx), timeoutMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (timer != null) {
            timer.cancel(false);
        }
    }

    private void expire(ChannelHandlerContext ctx) {
        if (ctx.isRemoved() || !ctx.channel().isActive()) {
            return;
        }
        metrics.handshakeTimeouts().inc();
        logs.handshakeTimeouts.warn("Closed connection " + ctx.channel().remoteAddress() + ": no handshake within "
                + timeoutMs + " ms (" + TidemarkConfig.TSO_HANDSHAKE_TIMEOUT_MS + ")");
        SslHandler tls = ctx.pipeline().get(SslHandler.class);
        boolean plaintextPossible = ctx.pipeline().get(TransportCheck.class) == null
                && (tls == null || tls.handshakeFuture().isSuccess());
        if (plaintextPossible) {
            ctx.fireExceptionCaught(new ProtocolException(ErrorCode.HANDSHAKE_TIMEOUT,
                    "no HELLO within " + timeoutMs + " ms of connecting"));
        } else {
            // The client cannot read a reply before the transport is agreed; just close.
            ctx.close();
        }
    }
}
