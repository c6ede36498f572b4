package io.tidemark.tso.netty;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;
import io.tidemark.protocol.ErrorReply;

import java.net.InetAddress;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The slot a connection holds from the moment it is accepted until it closes, and what the admission needs to know
 * about it: its address, and since when it has been idle (for giving its slot to a newcomer when the TSO is full). A
 * connection refused at accept holds no slot, only the refusal it is to be sent. Thread-safe: taken and released on
 * the acceptor thread, marked busy and idle on the event loop.
 */
final class ConnectionSlot {

    /** The slot of an admitted connection. */
    static final AttributeKey<ConnectionSlot> KEY = AttributeKey.valueOf("tidemark.connection-slot");
    /** The refusal a connection is to be sent before it is closed; only on refused connections. */
    static final AttributeKey<ErrorReply> REFUSAL = AttributeKey.valueOf("tidemark.connection-refusal");

    /** Idle since "never": before HELLO, or with requests in flight. */
    private static final long BUSY = Long.MAX_VALUE;

    private final Channel channel;
    private final InetAddress address;
    private final AtomicBoolean released = new AtomicBoolean();
    private volatile long idleSinceNanos = BUSY;

    ConnectionSlot(Channel channel, InetAddress address) {
        this.channel = channel;
        this.address = address;
    }

    Channel channel() {
        return channel;
    }

    InetAddress address() {
        return address;
    }

    /** The connection has requests in flight (or has not said HELLO yet): it is not idle. */
    void busy() {
        idleSinceNanos = BUSY;
    }

    /** The connection has nothing in flight since {@code nanos} ({@link System#nanoTime()}). */
    void idleSince(long nanos) {
        idleSinceNanos = nanos;
    }

    /** How long it has been idle at {@code nowNanos}; negative when busy. */
    long idleNanos(long nowNanos) {
        long since = idleSinceNanos;
        return since == BUSY ? -1 : nowNanos - since;
    }

    /** Frees the slot once, whoever asks first: the connection's close, or the admission taking it back. */
    boolean release() {
        return released.compareAndSet(false, true);
    }
}
