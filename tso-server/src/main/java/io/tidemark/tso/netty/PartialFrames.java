package io.tidemark.tso.netty;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.ErrorCode;
import io.tidemark.protocol.FrameDecoder;
import io.tidemark.tso.TsoMetrics;
import org.jspecify.annotations.Nullable;

import java.util.concurrent.TimeUnit;

/**
 * Watches what one connection holds in a frame received in part, just before the frame decoder: after every read it
 * tells the {@link FrameBudget} how much the decoder now buffers, and it closes the connection when a frame takes
 * longer than {@code tidemark.tso.frame-timeout-ms} from its first byte to its last, not counting time the TSO did
 * not read the connection (then the frame cannot advance). A partial frame thus costs its sender the frame timeout at
 * most, and all of them together the budget at most, where before one could be held until the idle timeout (five
 * minutes). Event-loop confined.
 */
final class PartialFrames extends ChannelInboundHandlerAdapter {

    private final FrameBudget budget;
    private final long timeoutNanos;
    private final TsoMetrics metrics;
    private final ConnectionLogs logs;
    private ChannelHandlerContext ctx;
    private long held;
    private long partialSinceNanos;
    private @Nullable ScheduledFuture<?> timeoutCheck;

    PartialFrames(FrameBudget budget, int timeoutMs, TsoMetrics metrics, ConnectionLogs logs) {
        this.budget = budget;
        this.timeoutNanos = TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        this.metrics = metrics;
        this.logs = logs;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        ctx = context;
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object msg) {
        FrameDecoder frames = context.pipeline().get(FrameDecoder.class);
        long framesBefore = frames.framesDecoded();
        context.fireChannelRead(msg);
        long now = frames.bufferedBytes();
        // A frame begun in this read: the first, or the next after frames that completed.
        boolean newFrame = now > 0 && (held == 0 || frames.framesDecoded() != framesBefore);
        if (newFrame) {
            partialSinceNanos = System.nanoTime();
            if (timeoutCheck == null) {
                timeoutCheck = context.executor().schedule(this::checkTimeout, timeoutNanos, TimeUnit.NANOSECONDS);
            }
        }
        if (now != held || newFrame) {
            long before = held;
            held = now;
            budget.holds(this, before, now, newFrame);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) {
        release();
        context.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext context) {
        release();
    }

    /**
     * Closes the connection, whose partial frame is the oldest while the budget is passed; returns the bytes it held,
     * which the budget no longer counts.
     */
    long dropForBudget(long maxBytes) {
        long freed = held;
        held = 0;
        metrics.frameBudgetClosed().inc();
        String why = "the TSO holds " + (maxBytes >> 20) + " MiB of frames received in part, its maximum ("
                + TidemarkConfig.TSO_MAX_BUFFERED_FRAME_BYTES + "), and this connection's is the oldest";
        logs.frameLimits.warn("Closing connection " + ctx.channel().remoteAddress() + ": " + why);
        ctx.fireExceptionCaught(new Refusal(ErrorCode.OVERLOADED, why + "; retry later"));
        return freed;
    }

    private void checkTimeout() {
        timeoutCheck = null;
        if (held == 0 || !ctx.channel().isActive()) {
            return;
        }
        if (!ctx.channel().config().isAutoRead()) {
            // The TSO is not reading this connection (backpressure, its turn, its work budget): the frame cannot
            // advance, and its time starts again once the TSO reads on.
            partialSinceNanos = System.nanoTime();
        }
        long age = System.nanoTime() - partialSinceNanos;
        if (age < timeoutNanos) {
            timeoutCheck = ctx.executor().schedule(this::checkTimeout, timeoutNanos - age, TimeUnit.NANOSECONDS);
            return;
        }
        metrics.frameTimeouts().inc();
        String why = "a frame did not arrive in full within " + TimeUnit.NANOSECONDS.toMillis(timeoutNanos)
                + " ms of its first byte (" + TidemarkConfig.TSO_FRAME_TIMEOUT_MS + ")";
        logs.frameLimits.warn("Closing connection " + ctx.channel().remoteAddress() + ": " + why);
        ctx.fireExceptionCaught(new Refusal(ErrorCode.MALFORMED, why));
    }

    private void release() {
        if (timeoutCheck != null) {
            timeoutCheck.cancel(false);
            timeoutCheck = null;
        }
        if (held != 0) {
            long before = held;
            held = 0;
            budget.holds(this, before, 0, false);
        }
    }
}
