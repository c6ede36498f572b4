package io.tidemark.client.tso;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.tidemark.protocol.Message;

/** Last pipeline stage: hands every message, and the end of its channel, to the connection that owns the channel. */
final class ReplyHandler extends ChannelInboundHandlerAdapter {

    private final TsoConnection connection;

    ReplyHandler(TsoConnection connection) {
        this.connection = connection;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        connection.onMessage(ctx.channel(), (Message) msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        connection.onChannelFailed(ctx.channel(), null);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        connection.onChannelFailed(ctx.channel(), cause);
    }
}
