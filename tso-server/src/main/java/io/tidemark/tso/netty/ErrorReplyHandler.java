package io.tidemark.tso.netty;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.tidemark.protocol.ErrorCode;
import io.tidemark.protocol.ErrorReply;
import io.tidemark.protocol.ProtocolException;
import io.tidemark.tso.TsoMetrics;
import io.tidemark.tso.processing.InvalidRequestException;
import io.tidemark.tso.timestamp.TimestampUnavailableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;

/**
 * Last stage of the pipeline: turns any failure on a connection into one ERROR reply and a close, with one log
 * line, so a bad client never disturbs the others nor floods the log. One instance per connection.
 */
final class ErrorReplyHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(ErrorReplyHandler.class);

    private final TsoMetrics metrics;
    private boolean closing;

    ErrorReplyHandler(TsoMetrics metrics) {
        this.metrics = metrics;
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
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable thrown) {
        if (closing || !ctx.channel().isActive()) {
            return;
        }
        closing = true;
        // Stop decoding: the rest of the stream cannot be trusted after a bad frame.
        ctx.channel().config().setAutoRead(false);
        Throwable cause = thrown instanceof DecoderException && thrown.getCause() != null ? thrown.getCause() : thrown;
        if (cause instanceof IOException) {
            LOG.debug("Connection {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
            ctx.close();
            return;
        }
        long requestId = 0;
        ErrorCode code;
        if (cause instanceof NotServingException) {
            requestId = 0;
            code = ((NotServingException) cause).errorCode();
            LOG.debug("Refusing connection {}: {}", ctx.channel().remoteAddress(), cause.getMessage());
        } else if (cause instanceof ProtocolException) {
            code = ((ProtocolException) cause).errorCode();
            metrics.protocolErrors().inc();
            LOG.warn("Closing connection {}: {}: {}", ctx.channel().remoteAddress(), code, cause.getMessage());
        } else if (cause instanceof InvalidRequestException) {
            requestId = ((InvalidRequestException) cause).requestId();
            code = ((InvalidRequestException) cause).errorCode();
            metrics.protocolErrors().inc();
            LOG.warn("Closing connection {}: {}: {}", ctx.channel().remoteAddress(), code, cause.getMessage());
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
    }
}
