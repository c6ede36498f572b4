package io.tidemark.tso.monitoring;

import com.codahale.metrics.Counter;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import org.jspecify.annotations.Nullable;

import java.util.concurrent.TimeUnit;

/**
 * First stage of an HTTP connection: it must send a complete request within the timeout of connecting, and each
 * further request (keep-alive) within the timeout of the previous answer, else it is closed. So a client that
 * trickles a request, or holds half of one, occupies a connection for one timeout at most. Event-loop confined.
 */
final class RequestDeadline extends ChannelInboundHandlerAdapter {

    private final long timeoutMs;
    private final Counter timeouts;
    private @Nullable ScheduledFuture<?> expiry;

    RequestDeadline(long timeoutMs, Counter timeouts) {
        this.timeoutMs = timeoutMs;
        this.timeouts = timeouts;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        restart(ctx.channel());
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        cancel();
        ctx.fireChannelInactive();
    }

    /** A request was answered: the next one has a full timeout. */
    void answered(Channel channel) {
        restart(channel);
    }

    private void restart(Channel channel) {
        cancel();
        expiry = channel.eventLoop().schedule(() -> expire(channel), timeoutMs, TimeUnit.MILLISECONDS);
    }

    private void expire(Channel channel) {
        if (channel.isActive()) {
            timeouts.inc();
            channel.close();
        }
    }

    private void cancel() {
        if (expiry != null) {
            expiry.cancel(false);
        }
    }
}
