package io.tidemark.tso.netty;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.util.concurrent.ScheduledFuture;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.AbortedReply;
import io.tidemark.protocol.BeginReply;
import io.tidemark.protocol.CommittedReply;
import io.tidemark.tso.TsoMetrics;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * Keeps one connection from costing the TSO more than a bounded amount of memory and time, after HELLO:
 * <ul>
 *   <li><b>Backpressure.</b> The TSO stops reading the connection while its unsent replies are above the channel's
 *       write-buffer high-water mark ({@code tidemark.tso.max-pending-reply-bytes}) or while it has
 *       {@code tidemark.tso.max-requests-in-flight} requests unanswered, and resumes once both are below. Requests
 *       already read when it stops (at most one read's worth) are held and processed on resume, in order.</li>
 *   <li><b>Stall.</b> A connection whose replies stay above the mark for {@code tidemark.tso.reply-stall-timeout-ms}
 *       (its client does not read them) is closed.</li>
 *   <li><b>Idle.</b> A connection that sent no complete request, and received no reply, for
 *       {@code tidemark.tso.idle-timeout-ms}, with nothing in flight, is closed. Partial frames do not count as activity, so a client cannot
 *       keep a connection (and its buffered partial frame) alive by trickling bytes.</li>
 * </ul>
 * Sits between the codec and the request handler: it sees requests as messages and replies before they are encoded.
 * Event-loop confined.
 */
final class RequestFlow extends ChannelDuplexHandler {

    private final int maxInFlight;
    private final long idleTimeoutNanos;
    private final int stallTimeoutMs;
    private final TsoMetrics metrics;
    private final ConnectionLogs logs;

    private final ArrayDeque<Object> held = new ArrayDeque<>();
    private int inFlight;
    private boolean paused;
    private boolean resumeScheduled;
    private long lastActivityNanos;
    private ScheduledFuture<?> idleCheck;
    private ScheduledFuture<?> stallCheck;

    RequestFlow(int maxInFlight, int idleTimeoutMs, int stallTimeoutMs, TsoMetrics metrics, ConnectionLogs logs) {
        this.maxInFlight = maxInFlight;
        this.idleTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(idleTimeoutMs);
        this.stallTimeoutMs = stallTimeoutMs;
        this.metrics = metrics;
        this.logs = logs;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        lastActivityNanos = System.nanoTime();
        scheduleIdleCheck(ctx, idleTimeoutNanos);
        if (!ctx.channel().isWritable()) {
            becameUnwritable(ctx);
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        cancelTimers();
        held.clear();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        cancelTimers();
        held.clear();
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (paused || !held.isEmpty()) {
            held.add(msg);
            return;
        }
        dispatch(ctx, msg);
    }

    private void dispatch(ChannelHandlerContext ctx, Object msg) {
        inFlight++;
        lastActivityNanos = System.nanoTime();
        ctx.fireChannelRead(msg);
        if (inFlight >= maxInFlight || !ctx.channel().isWritable()) {
            pause(ctx);
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof BeginReply || msg instanceof CommittedReply || msg instanceof AbortedReply) {
            inFlight--;
            lastActivityNanos = System.nanoTime();
            if (paused) {
                scheduleResume(ctx);
            }
        }
        ctx.write(msg, promise);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            if (stallCheck != null) {
                stallCheck.cancel(false);
                stallCheck = null;
            }
            scheduleResume(ctx);
        } else {
            becameUnwritable(ctx);
        }
        ctx.fireChannelWritabilityChanged();
    }

    private void becameUnwritable(ChannelHandlerContext ctx) {
        pause(ctx);
        if (stallCheck == null) {
            stallCheck = ctx.executor().schedule(() -> stalled(ctx), stallTimeoutMs, TimeUnit.MILLISECONDS);
        }
    }

    private void pause(ChannelHandlerContext ctx) {
        if (!paused) {
            paused = true;
            metrics.readPauses().inc();
            ctx.channel().config().setAutoRead(false);
        }
    }

    /** Resumes on a task of its own: writability and replies change in the middle of processing a request. */
    private void scheduleResume(ChannelHandlerContext ctx) {
        if (!resumeScheduled) {
            resumeScheduled = true;
            ctx.executor().execute(() -> resume(ctx));
        }
    }

    private void resume(ChannelHandlerContext ctx) {
        resumeScheduled = false;
        if (!paused || ctx.isRemoved() || !ctx.channel().isActive() || !ctx.channel().isWritable()
                || inFlight >= maxInFlight) {
            return;
        }
        paused = false;
        boolean dispatched = !held.isEmpty();
        while (!paused && !held.isEmpty()) {
            dispatch(ctx, held.poll());
        }
        if (!paused) {
            ctx.channel().config().setAutoRead(true);
        }
        if (dispatched) {
            // Outside a read, nobody else flushes the replies of the held requests.
            ctx.flush();
        }
    }

    private void stalled(ChannelHandlerContext ctx) {
        stallCheck = null;
        if (!ctx.channel().isActive() || ctx.channel().isWritable()) {
            return;
        }
        metrics.replyStalls().inc();
        logs.replyStalls.warn("Closed connection " + ctx.channel().remoteAddress() + ": its client did not read its"
                + " replies for " + stallTimeoutMs + " ms (" + TidemarkConfig.TSO_REPLY_STALL_TIMEOUT_MS + ")");
        ctx.close();
    }

    private void scheduleIdleCheck(ChannelHandlerContext ctx, long delayNanos) {
        idleCheck = ctx.executor().schedule(() -> checkIdle(ctx), delayNanos, TimeUnit.NANOSECONDS);
    }

    private void checkIdle(ChannelHandlerContext ctx) {
        if (!ctx.channel().isActive()) {
            return;
        }
        if (inFlight > 0 || !held.isEmpty()) {
            // Waiting for the TSO is not idleness.
            scheduleIdleCheck(ctx, idleTimeoutNanos);
            return;
        }
        long idleFor = System.nanoTime() - lastActivityNanos;
        if (idleFor >= idleTimeoutNanos) {
            metrics.idleClosed().inc();
            ConnectionLogs.logger().debug("Closing idle connection {}: no request for {} ms", ctx.channel()
                    .remoteAddress(), TimeUnit.NANOSECONDS.toMillis(idleFor));
            ctx.close();
            return;
        }
        scheduleIdleCheck(ctx, idleTimeoutNanos - idleFor);
    }

    private void cancelTimers() {
        if (idleCheck != null) {
            idleCheck.cancel(false);
        }
        if (stallCheck != null) {
            stallCheck.cancel(false);
        }
    }
}
