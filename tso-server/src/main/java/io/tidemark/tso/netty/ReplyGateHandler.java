package io.tidemark.tso.netty;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;

/**
 * First outbound stage of every connection, so every flush passes it: written replies only leave while the
 * {@link ServingGate} allows it (in particular while the lease is valid). A refused flush closes the connection,
 * which discards the unflushed replies; the gate stops the whole TSO. Costs a volatile read and a clock read per
 * flush, i.e. per batch of replies.
 */
@io.netty.channel.ChannelHandler.Sharable
final class ReplyGateHandler extends ChannelOutboundHandlerAdapter {

    private final ServingGate gate;

    ReplyGateHandler(ServingGate gate) {
        this.gate = gate;
    }

    @Override
    public void flush(ChannelHandlerContext ctx) {
        if (gate.mayFlush()) {
            ctx.flush();
        } else {
            ctx.close();
        }
    }
}
