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
import org.jspecify.annotations.Nullable;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * Keeps one connection from costing the TSO more than a bounded amount of memory and time, and from delaying other
 * connections' requests by more than a turn, after HELLO:
 * <ul>
 *   <li><b>Backpressure.</b> The TSO stops reading the connection while its unsent replies are above the channel's
 *       write-buffer high-water mark ({@code tidemark.tso.max-pending-reply-bytes}) or while it has
 *       {@code tidemark.tso.max-requests-in-flight} requests unanswered, and resumes once both are below.</li>
 *   <li><b>Turns.</b> One read of the socket, or one turn, dispatches requests worth at most {@value #TURN_IDS} ids
 *       (a BEGIN counts 1, a COMMIT 1 plus its ids; one request always goes). The rest of what was read waits, in
 *       order, for further turns, taken round-robin with every other connection that has work waiting
 *       ({@link FairTurns}); meanwhile the socket is not read.</li>
 *   <li><b>Work per second.</b> A connection that used up its {@code tidemark.tso.max-ids-per-second}
 *       ({@link WorkBudget}) is not served, nor read, until its budget refilled. Nothing is refused.</li>
 *   <li><b>Stall.</b> A connection whose replies stay above the mark for {@code tidemark.tso.reply-stall-timeout-ms}
 *       (its client does not read them) is closed.</li>
 *   <li><b>Idle.</b> A connection that sent no complete request, and received no reply, for
 *       {@code tidemark.tso.idle-timeout-ms}, with nothing in flight, is closed. Partial frames do not count as
 *       activity, so a client cannot keep a connection (and its buffered partial frame) alive by trickling bytes.
 *       Its {@link ConnectionSlot} learns when it became idle, so that a full TSO can give its slot away sooner.</li>
 * </ul>
 * Sits between the codec and the request handler: it sees requests as messages and replies before they are encoded.
 * Event-loop confined.
 */
final class RequestFlow extends ChannelDuplexHandler {

    /** Ids' worth of requests one read or one turn dispatches at most: about 50 µs of event-loop time. */
    static final int TURN_IDS = 64;

    private final int maxInFlight;
    private final long idleTimeoutNanos;
    private final int stallTimeoutMs;
    private final TsoMetrics metrics;
    private final ConnectionLogs logs;
    private final FairTurns turns;
    private final WorkBudget budget;

    private final ArrayDeque<Object> held = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private ConnectionSlot slot;
    private int inFlight;
    private int turnUsed;
    private boolean readingStopped;
    private boolean backpressureCounted;
    private boolean waitingForTurn;
    private boolean advanceScheduled;
    private long lastActivityNanos;
    private @Nullable ScheduledFuture<?> idleCheck;
    private @Nullable ScheduledFuture<?> stallCheck;
    private @Nullable ScheduledFuture<?> refill;

    RequestFlow(int maxInFlight, int idleTimeoutMs, int stallTimeoutMs, int maxIdsPerSecond, FairTurns turns,
                TsoMetrics metrics, ConnectionLogs logs) {
        this.maxInFlight = maxInFlight;
        this.idleTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(idleTimeoutMs);
        this.stallTimeoutMs = stallTimeoutMs;
        this.turns = turns;
        this.budget = new WorkBudget(maxIdsPerSecond, System.nanoTime());
        this.metrics = metrics;
        this.logs = logs;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        ctx = context;
        slot = ctx.channel().attr(ConnectionSlot.KEY).get();
        lastActivityNanos = System.nanoTime();
        markIdle();
        scheduleIdleCheck(idleTimeoutNanos);
        if (!ctx.channel().isWritable()) {
            becameUnwritable();
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext context) {
        cancelTimers();
        held.clear();
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) {
        cancelTimers();
        held.clear();
        context.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object msg) {
        if (held.isEmpty() && mayDispatch(System.nanoTime())) {
            dispatch(msg);
        } else {
            held.add(msg);
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext context) {
        turnUsed = 0;
        advance();
        context.fireChannelReadComplete();
    }

    /** A turn of {@link FairTurns}: dispatches what waits, up to a turn's worth. */
    void takeTurn() {
        waitingForTurn = false;
        if (ctx.isRemoved() || !ctx.channel().isActive()) {
            return;
        }
        turnUsed = 0;
        boolean dispatched = false;
        while (!held.isEmpty() && mayDispatch(System.nanoTime())) {
            dispatch(held.poll());
            dispatched = true;
        }
        if (dispatched) {
            // Outside a read, nobody else flushes these replies.
            ctx.flush();
        }
        turnUsed = 0;
        advance();
    }

    private boolean mayDispatch(long nowNanos) {
        return !backpressured() && turnUsed < TURN_IDS && budget.available(nowNanos);
    }

    private boolean backpressured() {
        return inFlight >= maxInFlight || !ctx.channel().isWritable();
    }

    private void dispatch(Object msg) {
        int cost = WorkBudget.costOf(msg);
        turnUsed += cost;
        budget.spend(cost);
        inFlight++;
        lastActivityNanos = System.nanoTime();
        if (slot != null) {
            slot.busy();
        }
        ctx.fireChannelRead(msg);
    }

    /**
     * After anything that may let the connection go on: reads again when nothing waits and nothing holds it back;
     * otherwise stops reading, and has what waits taken up by a later turn, or once the budget refilled.
     */
    private void advance() {
        if (ctx.isRemoved() || !ctx.channel().isActive()) {
            return;
        }
        if (!backpressured()) {
            backpressureCounted = false;
        }
        if (held.isEmpty() && !backpressured()) {
            startReading();
            return;
        }
        stopReading();
        if (backpressured()) {
            countBackpressure();
            // A reply going out, or the channel becoming writable, calls advance() again.
            return;
        }
        if (held.isEmpty()) {
            return;
        }
        long wait = budget.nanosUntilAvailable(System.nanoTime());
        if (wait > 0) {
            if (refill == null) {
                metrics.throttled().inc();
                refill = ctx.executor().schedule(() -> {
                    refill = null;
                    advance();
                }, wait, TimeUnit.NANOSECONDS);
            }
            return;
        }
        if (!waitingForTurn) {
            waitingForTurn = true;
            turns.waitForTurn(this);
        }
    }

    private void stopReading() {
        if (!readingStopped) {
            readingStopped = true;
            ctx.channel().config().setAutoRead(false);
        }
    }

    /** Counts one pause for backpressure (too many unsent replies or requests in flight) until it is over. */
    private void countBackpressure() {
        if (!backpressureCounted) {
            backpressureCounted = true;
            metrics.readPauses().inc();
        }
    }

    private void startReading() {
        if (readingStopped) {
            readingStopped = false;
            ctx.channel().config().setAutoRead(true);
        }
    }

    /** Advances on a task of its own: replies and writability change in the middle of processing a request. */
    private void scheduleAdvance() {
        if (!advanceScheduled) {
            advanceScheduled = true;
            ctx.executor().execute(() -> {
                advanceScheduled = false;
                advance();
            });
        }
    }

    @Override
    public void write(ChannelHandlerContext context, Object msg, ChannelPromise promise) {
        if (msg instanceof BeginReply || msg instanceof CommittedReply || msg instanceof AbortedReply) {
            inFlight--;
            lastActivityNanos = System.nanoTime();
            if (inFlight == 0 && held.isEmpty()) {
                markIdle();
            }
            if (readingStopped) {
                scheduleAdvance();
            }
        }
        context.write(msg, promise);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext context) {
        if (context.channel().isWritable()) {
            if (stallCheck != null) {
                stallCheck.cancel(false);
                stallCheck = null;
            }
            scheduleAdvance();
        } else {
            becameUnwritable();
        }
        context.fireChannelWritabilityChanged();
    }

    private void becameUnwritable() {
        stopReading();
        countBackpressure();
        if (stallCheck == null) {
            stallCheck = ctx.executor().schedule(this::stalled, stallTimeoutMs, TimeUnit.MILLISECONDS);
        }
    }

    private void stalled() {
        stallCheck = null;
        if (!ctx.channel().isActive() || ctx.channel().isWritable()) {
            return;
        }
        metrics.replyStalls().inc();
        logs.replyStalls.warn("Closed connection " + ctx.channel().remoteAddress() + ": its client did not read its"
                + " replies for " + stallTimeoutMs + " ms (" + TidemarkConfig.TSO_REPLY_STALL_TIMEOUT_MS + ")");
        ctx.close();
    }

    private void markIdle() {
        if (slot != null) {
            slot.idleSince(System.nanoTime());
        }
    }

    private void scheduleIdleCheck(long delayNanos) {
        idleCheck = ctx.executor().schedule(this::checkIdle, delayNanos, TimeUnit.NANOSECONDS);
    }

    private void checkIdle() {
        if (!ctx.channel().isActive()) {
            return;
        }
        if (inFlight > 0 || !held.isEmpty()) {
            // Waiting for the TSO is not idleness.
            scheduleIdleCheck(idleTimeoutNanos);
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
        scheduleIdleCheck(idleTimeoutNanos - idleFor);
    }

    private void cancelTimers() {
        for (ScheduledFuture<?> timer : new ScheduledFuture<?>[] {idleCheck, stallCheck, refill}) {
            if (timer != null) {
                timer.cancel(false);
            }
        }
    }
}
