package io.tidemark.tso.netty;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.tidemark.protocol.ErrorCode;
import io.tidemark.protocol.ErrorReply;
import io.tidemark.protocol.ProtocolException;
import io.tidemark.tso.TsoMetrics;
import io.tidemark.tso.processing.InvalidRequestException;
import io.tidemark.tso.timestamp.TimestampUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Last stage of the pipeline: turns any failure on a connection into one ERROR reply and a close, logged once per
 * burst of its kind ({@link ConnectionLogs}), so a bad client never disturbs the others nor floods the log. One
 * instance per connection.
 */
final class ErrorReplyHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(ErrorReplyHandler.class);

    /** A client that does not read its ERROR does not keep its connection: it is closed this long after. */
    private static final long CLOSE_AFTER_ERROR_MS = 1000;

    private final TsoMetrics metrics;
    private final ConnectionLogs logs;
    private boolean closing;

    ErrorReplyHandler(TsoMetrics metrics, ConnectionLogs logs) {
        this.metrics = metrics;
        this.logs = logs;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        metrics.connections().inc();
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        metrics.connections().dec();
        ctx.fireChannelInactive();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof SslHandshakeCompletionEvent && !((SslHandshakeCompletionEvent) event).isSuccess()) {
            Throwable cause = ((SslHandshakeCompletionEvent) event).cause();
            logs.tlsFailures.warn("TLS handshake with " + ctx.channel().remoteAddress() + " failed: "
                    + (cause.getMessage() != null ? cause.getMessage() : cause.toString()));
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable thrown) {
        if (closing || !ctx.channel().isActive()) {
            return;
        }
        closing = true;
        // Stop decoding: the rest of the stream cannot be trusted after a bad frame.
        ctx.channel().config().setAutoRead(false);
        Throwable cause = thrown instanceof DecoderException && thrown.getCause() != null ? thrown.getCause() : thrown;
        if (cause instanceof OutOfMemoryError) {
            // No memory for what this client sent (or for its reply): its connection goes, the TSO carries on. Not
            // the TSO's own error: the limits on frames and replies bound what clients may hold.
            metrics.allocationFailures().inc();
            logs.allocationFailures.warn("Closing connection " + ctx.channel().remoteAddress() + ": out of memory"
                    + " for it (" + cause + ")");
            ctx.close();
            return;
        }
        if (cause instanceof IOException) {
            // A failed TLS handshake was logged with its completion event.
            LOG.debug("Connection {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
            ctx.close();
            return;
        }
        long requestId = 0;
        ErrorCode code;
        if (cause instanceof Refusal) {
            code = ((Refusal) cause).errorCode();
            LOG.debug("Refusing connection {}: {}", ctx.channel().remoteAddress(), cause.getMessage());
        } else if (cause instanceof ProtocolException) {
            code = ((ProtocolException) cause).errorCode();
            metrics.protocolErrors().inc();
            if (code != ErrorCode.HANDSHAKE_TIMEOUT) {
                logs.protocolErrors.warn(closing(ctx, code, cause));
            }
        } else if (cause instanceof InvalidRequestException) {
            requestId = ((InvalidRequestException) cause).requestId();
            code = ((InvalidRequestException) cause).errorCode();
            metrics.protocolErrors().inc();
            (code == ErrorCode.NOT_AUTHORIZED ? logs.notAuthorized : logs.protocolErrors).warn(
                    closing(ctx, code, cause));
        } else if (cause instanceof TimestampUnavailableException) {
            code = ErrorCode.UNAVAILABLE;
            metrics.error("no timestamp to hand out: " + cause.getMessage());
            LOG.warn("Closing connection {}: {}", ctx.channel().remoteAddress(), cause.getMessage());
        } else {
            code = ErrorCode.INTERNAL;
            metrics.error("internal error on a connection: " + cause);
            LOG.error("Closing connection {} after an internal error", ctx.channel().remoteAddress(), cause);
        }
        ctx.writeAndFlush(new ErrorReply(requestId, code, String.valueOf(cause.getMessage())))
                .addListener(ChannelFutureListener.CLOSE);
        ctx.executor().schedule(() -> ctx.close(), CLOSE_AFTER_ERROR_MS, TimeUnit.MILLISECONDS);
    }

    private static String closing(ChannelHandlerContext ctx, ErrorCode code, Throwable cause) {
        return "Closing connection " + ctx.channel().remoteAddress() + ": " + code + ": " + cause.getMessage();
    }
}
