package io.tidemark.client.tso;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.ssl.SslHandshakeTimeoutException;
import io.netty.util.concurrent.ScheduledFuture;
import io.tidemark.config.HostAndPort;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.AbortedReply;
import io.tidemark.protocol.BeginReply;
import io.tidemark.protocol.CommittedReply;
import io.tidemark.protocol.ErrorCode;
import io.tidemark.protocol.ErrorReply;
import io.tidemark.protocol.Hello;
import io.tidemark.protocol.HelloReply;
import io.tidemark.protocol.Message;
import io.tidemark.protocol.MessageDecoder;
import io.tidemark.protocol.MessageEncoder;
import io.tidemark.protocol.Protocol;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.net.ssl.SSLException;

/**
 * One pipelined connection to the TSO, (re)established on demand: connect, HELLO handshake, then any number of
 * requests in flight, matched to their replies by request id. While anyone waits (a queued request or a handshake,
 * each within its own deadline), failed connection attempts are repeated every retry backoff, each to the address
 * the {@link TsoAddressSource} names then: during a TSO failover, requests wait for the new active TSO instead of
 * failing. A standby's {@code NOT_ACTIVE} refusal is such a failed attempt.
 *
 * <p>Threading: callers only touch {@link #outbound} (a multi-producer queue), {@link #drainScheduled} and the
 * volatile fields. Everything else is owned by the event loop, which writes all queued requests and then flushes
 * once, so concurrent callers share system calls instead of paying one each.
 */
final class TsoConnection {

    private static final Logger LOG = LoggerFactory.getLogger(TsoConnection.class);

    /** Replies are small; a longer frame means the peer is not a TSO. */
    private static final int MAX_REPLY_FRAME_BYTES = 64 * 1024;

    /** Requests written per drain before flushing and letting the loop read replies in between. */
    private static final int MAX_WRITES_PER_DRAIN = 4096;

    private enum State { IDLE, CONNECTING, READY, CLOSED }

    private final TsoAddressSource addresses;
    private final EventLoop loop;
    private final Bootstrap bootstrap;
    /** TLS towards the TSO, or null for plaintext. */
    private final long requestTimeoutMillis;
    private final long retryBackoffMillis;

    private final Queue<TsoRequest<?>> outbound = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final Runnable drainTask = this::drain;
    private volatile boolean closed;
    /** The handshake of the current channel while the connection is ready, else null. */
    private volatile @Nullable HelloReply readyHello;

    // Owned by the event loop.
    private final InFlightRequests inFlight = new InFlightRequests();
    private final List<HandshakeWaiter> handshakeWaiters = new ArrayList<>();
    private final ScheduledFuture<?> expiryTicker;
    private State state = State.IDLE;
    private @Nullable Channel channel;
    private int attempts;
    /** Where the current channel goes (or went), for messages; null before the first attempt. */
    private volatile @Nullable HostAndPort target;
    /** Why the last connection attempt failed, while connecting; for the messages of requests that expire meanwhile. */
    private @Nullable String lastAttemptFailure;
    private @Nullable ScheduledFuture<?> handshakeTimeout;
    private long lastRequestId;
    /** When a request was last written or a reply last received, for closing the connection when idle. */
    private long lastActivityNanos;

    /** A handshake someone waits for, until its deadline. */
    private static final class HandshakeWaiter {
        final CompletableFuture<HelloReply> future;
        final long deadlineNanos;

        HandshakeWaiter(CompletableFuture<HelloReply> future, long deadlineNanos) {
            this.future = future;
            this.deadlineNanos = deadlineNanos;
        }
    }

    /** @param tls TLS towards the TSO, or null for plaintext */
    TsoConnection(TsoAddressSource addresses, EventLoop loop, Bootstrap template, @Nullable TsoClientTls tls,
                  long requestTimeoutMillis, long retryBackoffMillis) {
        this.addresses = addresses;
        this.loop = loop;
        this.requestTimeoutMillis = requestTimeoutMillis;
        this.retryBackoffMillis = retryBackoffMillis;
        this.bootstrap = template.clone(loop).handler(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                if (tls != null) {
                    // Runs inside connectTo (on this loop), after the target was set.
                    // connectOnce() sets the target before it connects
                    HostAndPort to = Objects.requireNonNull(target);
                    ch.pipeline().addLast("tls", tls.newHandler(ch.alloc(), to, requestTimeoutMillis));
                }
                ch.pipeline().addLast(MessageDecoder.frameDecoder(MAX_REPLY_FRAME_BYTES), MessageDecoder.INSTANCE,
                        MessageEncoder.INSTANCE, new ReplyHandler(TsoConnection.this));
            }
        });
        // Timeouts are checked by a sweep instead of a timer per request: cheaper at hundreds of thousands of
        // requests a second, at the price of firing up to one tick late.
        long tickMillis = Math.max(1, Math.min(requestTimeoutMillis / 10, 100));
        this.expiryTicker = loop.scheduleAtFixedRate(this::expireOverdue, tickMillis, tickMillis,
                TimeUnit.MILLISECONDS);
    }

    /** Queues {@code request} for sending; any thread. */
    void submit(TsoRequest<?> request) {
        if (closed) {
            request.fail(closedException());
            return;
        }
        outbound.offer(request);
        // Re-checked after queuing: either close() sees the request in the queue, or we see the flag.
        if (closed) {
            request.fail(closedException());
            return;
        }
        try {
            scheduleDrain();
        } catch (RejectedExecutionException e) {
            request.fail(closedException());
        }
    }

    /** Completes with the handshake of a ready connection, connecting first if needed; any thread. */
    CompletableFuture<HelloReply> handshake() {
        HelloReply hello = readyHello;
        if (hello != null) {
            return CompletableFuture.completedFuture(hello);
        }
        CompletableFuture<HelloReply> waiter = new CompletableFuture<>();
        if (closed) {
            waiter.completeExceptionally(closedException());
            return waiter;
        }
        try {
            loop.execute(() -> awaitHandshake(waiter));
        } catch (RejectedExecutionException e) {
            waiter.completeExceptionally(closedException());
        }
        return waiter;
    }

    /** The handshake of the current channel, or null when not connected. */
    @Nullable HelloReply readyHello() {
        return readyHello;
    }

    /** Fails everything pending and closes the channel; any thread; the event loop must still be running. */
    void close() {
        closed = true;
        try {
            loop.execute(this::shutDown);
        } catch (RejectedExecutionException e) {
            LOG.debug("event loop already stopped while closing the connection to {}", where());
        }
    }

    // ---- event loop from here on ----

    void onMessage(Channel ch, Message message) {
        if (ch != channel) {
            return;
        }
        switch (message.type()) {
            case HELLO_REPLY:
                onHelloReply(ch, (HelloReply) message);
                break;
            case BEGIN_REPLY:
                onReply(((BeginReply) message).requestId(), message);
                break;
            case COMMITTED:
                onReply(((CommittedReply) message).requestId(), message);
                break;
            case ABORTED:
                onReply(((AbortedReply) message).requestId(), message);
                break;
            case ERROR:
                onError((ErrorReply) message);
                break;
            default:
                onChannelFailed(ch, new TsoUnavailableException(
                        where() + " sent " + message.type() + ", which only clients send"));
        }
    }

    /** The channel ended: {@code cause} is null when it was closed, else what broke it. */
    void onChannelFailed(Channel ch, @Nullable Throwable cause) {
        if (ch != channel) {
            ch.close();
            return;
        }
        String what = cause == null ? "closed by the TSO" : describe(cause);
        if (state == State.CONNECTING) {
            TsoUnavailableException tlsFailure = tlsFailure(cause);
            if (tlsFailure != null) {
                connectFailed(tlsFailure);
            } else {
                attemptFailed(new TsoUnavailableException("connection " + what, cause));
            }
        } else if (state == State.READY) {
            connectionLost(new TsoUnavailableException(
                    "connection to " + where() + " lost with the request in flight: " + what, cause));
        }
    }

    private void scheduleDrain() {
        if (!drainScheduled.get() && drainScheduled.compareAndSet(false, true)) {
            loop.execute(drainTask);
        }
    }

    private void drain() {
        // Cleared before polling: a request queued from now on schedules another drain.
        drainScheduled.set(false);
        switch (state) {
            case READY:
                writeQueued();
                break;
            case IDLE:
                if (!outbound.isEmpty()) {
                    startConnecting();
                }
                break;
            case CLOSED:
                failQueued(closedException());
                break;
            default:
                // CONNECTING: the queue is written when the handshake completes.
                break;
        }
    }

    private void writeQueued() {
        int written = 0;
        TsoRequest<?> request;
        while (state == State.READY && written < MAX_WRITES_PER_DRAIN && (request = outbound.poll()) != null) {
            if (request.isDone()) {
                continue;
            }
            Message message = request.toMessage(++lastRequestId);
            inFlight.add(request);
            Channel ready = Objects.requireNonNull(channel, "a ready connection has a channel");
            ready.write(message, ready.voidPromise());
            written++;
        }
        if (written > 0 && state == State.READY) {
            lastActivityNanos = System.nanoTime();
            Objects.requireNonNull(channel, "a ready connection has a channel").flush();
        }
        if (state == State.READY && !outbound.isEmpty()) {
            scheduleDrain();
        }
    }

    private void awaitHandshake(CompletableFuture<HelloReply> waiter) {
        switch (state) {
            case READY:
                waiter.complete(readyHello);
                break;
            case CLOSED:
                waiter.completeExceptionally(closedException());
                break;
            case IDLE:
                handshakeWaiters.add(new HandshakeWaiter(waiter, System.nanoTime()
                        + TimeUnit.MILLISECONDS.toNanos(requestTimeoutMillis)));
                startConnecting();
                break;
            default:
                handshakeWaiters.add(new HandshakeWaiter(waiter, System.nanoTime()
                        + TimeUnit.MILLISECONDS.toNanos(requestTimeoutMillis)));
                break;
        }
    }

    private void startConnecting() {
        state = State.CONNECTING;
        attempts = 0;
        connectOnce();
    }

    private void connectOnce() {
        if (state != State.CONNECTING) {
            return;
        }
        attempts++;
        // After a failed attempt the TSO may have failed over: ask for the latest address.
        addresses.resolve(attempts > 1).whenComplete((address, failure) -> {
            try {
                loop.execute(() -> connectTo(address, failure));
            } catch (RejectedExecutionException stopped) {
                // The client is closed; shutDown() failed everything.
            }
        });
    }

    private void connectTo(HostAndPort address, Throwable lookupFailure) {
        if (state != State.CONNECTING) {
            return;
        }
        if (lookupFailure != null) {
            attemptFailed(lookupFailure);
            return;
        }
        target = address;
        ChannelFuture connect = bootstrap.connect(address.host(), address.port());
        channel = connect.channel();
        connect.addListener(done -> onConnectDone(connect));
    }

    private void onConnectDone(ChannelFuture connect) {
        Channel ch = connect.channel();
        if (ch != channel) {
            ch.close();
            return;
        }
        if (!connect.isSuccess()) {
            attemptFailed(connect.cause());
            return;
        }
        ch.writeAndFlush(Hello.current(), ch.voidPromise());
        handshakeTimeout = loop.schedule(() -> {
            if (ch == channel && state == State.CONNECTING) {
                attemptFailed(new TsoUnavailableException("no HELLO reply within " + requestTimeoutMillis + " ms"));
            }
        }, requestTimeoutMillis, TimeUnit.MILLISECONDS);
    }

    private void onHelloReply(Channel ch, HelloReply hello) {
        if (state != State.CONNECTING) {
            onChannelFailed(ch, new TsoUnavailableException(where() + " sent a second HELLO reply"));
            return;
        }
        cancelHandshakeTimeout();
        lastAttemptFailure = null;
        if (hello.version() != Protocol.VERSION) {
            connectFailed(new TsoUnavailableException(where() + " speaks protocol version "
                    + hello.version() + " but this client speaks version " + Protocol.VERSION));
            return;
        }
        LOG.debug("connected to {}: {}", where(), hello);
        state = State.READY;
        readyHello = hello;
        lastActivityNanos = System.nanoTime();
        for (HandshakeWaiter waiter : handshakeWaiters) {
            waiter.future.complete(hello);
        }
        handshakeWaiters.clear();
        writeQueued();
    }

    private void onReply(long requestId, Message reply) {
        lastActivityNanos = System.nanoTime();
        TsoRequest<?> request = inFlight.remove(requestId);
        if (request == null) {
            LOG.debug("ignoring a reply to an unknown or expired request: {}", reply);
            return;
        }
        request.complete(reply, Objects.requireNonNull(readyHello, "replies come on a ready channel"));
    }

    private void onError(ErrorReply error) {
        TsoUnavailableException refusal = new TsoUnavailableException(
                where() + " answered ERROR " + error.code() + ": " + error.text(), error.code());
        if (state == State.CONNECTING) {
            if (error.code() == ErrorCode.TLS_REQUIRED) {
                connectFailed(new TsoUnavailableException(where() + " requires TLS and this client spoke plaintext:"
                        + " set " + TidemarkConfig.CLIENT_TSO_TLS_ENABLED + "=true and "
                        + TidemarkConfig.CLIENT_TSO_TLS_TRUST + " (the CA of the TSO's certificate) in the client's"
                        + " configuration (the TSO said: " + error.text() + ")", error.code()));
            } else if (error.code() == ErrorCode.UNSUPPORTED_VERSION || error.code() == ErrorCode.NOT_AUTHORIZED) {
                // Configuration errors: trying again cannot help.
                connectFailed(refusal);
            } else {
                attemptFailed(refusal);
            }
            return;
        }
        if (error.requestId() == 0) {
            inFlight.removeAll(request -> request.fail(refusal));
        } else {
            TsoRequest<?> request = inFlight.remove(error.requestId());
            if (request != null) {
                request.fail(refusal);
            }
        }
        // The TSO closes the connection after an ERROR; stop writing to it at once.
        connectionLost(new TsoUnavailableException(where() + " closed the connection after ERROR "
                + error.code() + ": " + error.text(), error.code()));
    }

    private void attemptFailed(Throwable cause) {
        if (state != State.CONNECTING) {
            return;
        }
        cancelHandshakeTimeout();
        closeChannel();
        lastAttemptFailure = describe(cause);
        if (someoneWaits(System.nanoTime())) {
            LOG.debug("attempt {} to connect to {} failed: {}", attempts, where(), describe(cause));
            loop.schedule(this::connectOnce, retryBackoffMillis, TimeUnit.MILLISECONDS);
        } else {
            connectFailed(unreachableException(cause));
        }
    }

    private void connectFailed(TsoUnavailableException failure) {
        cancelHandshakeTimeout();
        closeChannel();
        state = State.IDLE;
        failQueued(failure);
        for (HandshakeWaiter waiter : handshakeWaiters) {
            waiter.future.completeExceptionally(failure);
        }
        handshakeWaiters.clear();
    }

    /** Whether a queued request or a handshake waiter is still within its deadline. */
    private boolean someoneWaits(long nowNanos) {
        for (TsoRequest<?> request : outbound) {
            if (!request.isDone() && !request.isOverdue(nowNanos)) {
                return true;
            }
        }
        for (HandshakeWaiter waiter : handshakeWaiters) {
            if (!waiter.future.isDone() && nowNanos - waiter.deadlineNanos < 0) {
                return true;
            }
        }
        return false;
    }

    private void connectionLost(TsoUnavailableException failure) {
        LOG.debug("{}", failure.getMessage());
        readyHello = null;
        state = State.IDLE;
        closeChannel();
        inFlight.removeAll(request -> {
            if (request.resendAfterConnectionLoss()) {
                outbound.offer(request);
            } else {
                request.fail(failure);
            }
        });
        if (!outbound.isEmpty()) {
            startConnecting();
        }
    }

    private void shutDown() {
        TsoUnavailableException failure = closedException();
        state = State.CLOSED;
        readyHello = null;
        expiryTicker.cancel(false);
        cancelHandshakeTimeout();
        closeChannel();
        inFlight.removeAll(request -> request.fail(failure));
        failQueued(failure);
        for (HandshakeWaiter waiter : handshakeWaiters) {
            waiter.future.completeExceptionally(failure);
        }
        handshakeWaiters.clear();
    }

    private void expireOverdue() {
        long now = System.nanoTime();
        inFlight.expire(now, this::timeoutException);
        closeIfIdle(now);
        handshakeWaiters.removeIf(waiter -> {
            if (now - waiter.deadlineNanos >= 0) {
                waiter.future.completeExceptionally(unreachableException(null));
                return true;
            }
            return waiter.future.isDone();
        });
        // Requests still queued (while connecting) are in arrival order, so their deadlines are too.
        TsoRequest<?> head;
        while ((head = outbound.peek()) != null && (head.isDone() || head.isOverdue(now))) {
            outbound.poll().fail(lastAttemptFailure != null ? unreachableException(null) : timeoutException());
        }
    }

    /**
     * Closes the connection once it was idle (nothing written, nothing awaited) for half the TSO's idle timeout, well
     * before the TSO would close it: the TSO then never closes a connection just as a request is on its way, which
     * would leave a COMMIT's outcome unknown. The next request connects again.
     */
    private void closeIfIdle(long nowNanos) {
        HelloReply hello = readyHello;
        if (state != State.READY || hello == null || !inFlight.isEmpty() || !outbound.isEmpty()) {
            return;
        }
        if (nowNanos - lastActivityNanos >= TimeUnit.MILLISECONDS.toNanos(hello.idleTimeoutMs()) / 2) {
            LOG.debug("closing the idle connection to {}", where());
            readyHello = null;
            state = State.IDLE;
            closeChannel();
        }
    }

    /**
     * A clear failure when {@code cause} shows that TLS settings of client and TSO disagree (or certificates are not
     * trusted), which no retry can fix; null for any other cause.
     */
    private @Nullable TsoUnavailableException tlsFailure(@Nullable Throwable cause) {
        Throwable root = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        if (root instanceof NotSslRecordException) {
            return new TsoUnavailableException(where() + " answered in plaintext: it does not use TLS. Set "
                    + TidemarkConfig.CLIENT_TSO_TLS_ENABLED + "=false, or enable TLS on the TSO ("
                    + TidemarkConfig.TSO_TLS_ENABLED + ")", root);
        }
        if (root instanceof SSLException && !(root instanceof SslHandshakeTimeoutException)) {
            return new TsoUnavailableException("TLS with " + where() + " failed: " + describe(root) + ". Check "
                    + TidemarkConfig.CLIENT_TSO_TLS_TRUST + " (the CA of the TSO's certificate, which must name the"
                    + " host the client connects to unless " + TidemarkConfig.CLIENT_TSO_TLS_VERIFY_HOSTNAME
                    + " is false) and, for mutual TLS, " + TidemarkConfig.CLIENT_TSO_TLS_CERT + " and "
                    + TidemarkConfig.CLIENT_TSO_TLS_KEY, root);
        }
        return null;
    }

    private void failQueued(TsoUnavailableException failure) {
        TsoRequest<?> request;
        while ((request = outbound.poll()) != null) {
            request.fail(failure);
        }
    }

    private void closeChannel() {
        Channel ch = channel;
        if (ch != null) {
            // Cleared first: events of the closing channel are then ignored as coming from a stale channel.
            channel = null;
            ch.close();
        }
    }

    private void cancelHandshakeTimeout() {
        if (handshakeTimeout != null) {
            handshakeTimeout.cancel(false);
            handshakeTimeout = null;
        }
    }

    private TsoUnavailableException timeoutException() {
        return new TsoUnavailableException("no reply from " + where() + " within " + requestTimeoutMillis
                + " ms");
    }

    private TsoUnavailableException unreachableException(@Nullable Throwable lastCause) {
        return new TsoUnavailableException("could not reach " + addresses.describe() + " within " + requestTimeoutMillis
                + " ms (" + attempts + " attempts" + (lastAttemptFailure != null ? "; last: " + lastAttemptFailure : "")
                + ")", lastCause);
    }

    private TsoUnavailableException closedException() {
        return new TsoUnavailableException("the client of " + addresses.describe() + " is closed");
    }

    /** The TSO this connection talks (or last tried to talk) to, for messages. */
    private String where() {
        HostAndPort t = target;
        return t != null ? "the TSO at " + t : addresses.describe();
    }

    private static String describe(Throwable cause) {
        Throwable root = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        return root.getMessage() != null ? root.getMessage() : root.getClass().getName();
    }
}
