package io.tidemark.tso.netty;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.ErrorCode;
import io.tidemark.protocol.ErrorReply;
import io.tidemark.tso.TsoMetrics;
import org.jspecify.annotations.Nullable;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Decides, the moment the acceptor hands over a new connection and before it is registered with the event loop, whether
 * it gets a slot: at most {@code tidemark.tso.max-connections} in all, {@code tidemark.tso.max-connections-per-address}
 * from one address, and {@code tidemark.tso.connect-rate-per-address} new ones per second from one address. Counting
 * here, not once the event loop gets to the connection, keeps the open descriptors under the limit when clients
 * connect and close faster than the event loop registers them.
 *
 * <p>When the TSO is full, the connection idle longest (after HELLO, nothing in flight) gives its slot to the newcomer
 * if it has been idle at least {@code tidemark.tso.reclaim-idle-ms}: clients reconnect on their next request, while
 * connections held open and idle cannot lock everyone else out. Otherwise the newcomer is refused: a plaintext client
 * is sent {@code ERROR OVERLOADED} saying why (at most {@value #REFUSALS_IN_FLIGHT} such answers at a time, so
 * refusals cannot hold descriptors either), a TLS client is just closed. Refusals are logged once per burst.
 *
 * <p>Runs on the acceptor thread; slots are released from the event loop: synchronized.
 */
@ChannelHandler.Sharable
public final class ConnectionAdmission extends ChannelInboundHandlerAdapter {

    /** Refused connections at most being told why at once; beyond it, refused connections are closed unanswered. */
    static final int REFUSALS_IN_FLIGHT = 16;

    private final int maxConnections;
    private final long reclaimIdleNanos;
    private final boolean tls;
    private final TsoMetrics metrics;
    private final ConnectionLogs logs;
    private final AddressBook addresses;
    @GuardedBy("this")
    private final Set<ConnectionSlot> slots = new LinkedHashSet<>();
    @GuardedBy("this")
    private int refusalsInFlight;

    /** @param maxConnections the limit, already lowered to the open-file limit */
    public ConnectionAdmission(int maxConnections, int maxPerAddress, int connectsPerSecond, int reclaimIdleMs,
                               boolean tls, TsoMetrics metrics, ConnectionLogs logs) {
        this.maxConnections = maxConnections;
        this.reclaimIdleNanos = TimeUnit.MILLISECONDS.toNanos(reclaimIdleMs);
        this.tls = tls;
        this.metrics = metrics;
        this.logs = logs;
        this.addresses = new AddressBook(maxPerAddress, connectsPerSecond, 2 * maxConnections + 1024);
    }

    /** The server channel's read: {@code msg} is a connection just accepted, not registered yet. */
    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Channel child = (Channel) msg;
        InetSocketAddress remote = (InetSocketAddress) child.remoteAddress();
        if (remote == null) {
            // Closed by its client already. (An exception here would make Netty pause accepting for a second.)
            child.unsafe().closeForcibly();
            return;
        }
        InetAddress address = remote.getAddress();
        ConnectionSlot reclaimed = null;
        String refusal;
        boolean refusedByAddress = false;
        synchronized (this) {
            refusal = addresses.admit(address, System.nanoTime());
            if (refusal != null) {
                refusedByAddress = true;
            } else if (slots.size() >= maxConnections) {
                reclaimed = longestIdle();
                if (reclaimed == null) {
                    addresses.closed(address);
                    refusal = "the TSO has " + maxConnections + " client connections, its maximum ("
                            + TidemarkConfig.TSO_MAX_CONNECTIONS + "), none of them idle";
                } else {
                    release(reclaimed);
                }
            }
            if (refusal == null) {
                ConnectionSlot slot = new ConnectionSlot(child, address);
                slots.add(slot);
                child.attr(ConnectionSlot.KEY).set(slot);
                child.closeFuture().addListener(closed -> release(slot));
            }
        }
        if (reclaimed != null) {
            metrics.reclaimed().inc();
            ConnectionLogs.logger().debug("Closing idle connection {} to admit {}", reclaimed.channel().remoteAddress(),
                    child.remoteAddress());
            reclaimed.channel().close();
        }
        if (refusal != null) {
            refuse(ctx, child, refusal, refusedByAddress);
            return;
        }
        ctx.fireChannelRead(child);
    }

    /** Connections holding a slot. */
    public synchronized int open() {
        return slots.size();
    }

    /** The connection idle longest, if idle long enough to give up its slot; null otherwise. */
    @GuardedBy("this")
    private @Nullable ConnectionSlot longestIdle() {
        long now = System.nanoTime();
        ConnectionSlot longest = null;
        long longestIdle = reclaimIdleNanos - 1;
        for (ConnectionSlot slot : slots) {
            long idle = slot.idleNanos(now);
            if (idle > longestIdle) {
                longest = slot;
                longestIdle = idle;
            }
        }
        return longest;
    }

    private synchronized void release(ConnectionSlot slot) {
        if (slot.release()) {
            slots.remove(slot);
            addresses.closed(slot.address());
        }
    }

    private void refuse(ChannelHandlerContext ctx, Channel child, String why, boolean byAddress) {
        (byAddress ? metrics.addressLimited() : metrics.refusedConnections()).inc();
        logs.refused.warn("Refusing connection " + child.remoteAddress() + ": " + why + ". If legitimate clients need"
                + " more, raise " + (byAddress ? TidemarkConfig.TSO_MAX_CONNECTIONS_PER_ADDRESS + " or "
                + TidemarkConfig.TSO_CONNECT_RATE_PER_ADDRESS : TidemarkConfig.TSO_MAX_CONNECTIONS
                + " together with the process's open-file limit (ulimit -n)"));
        if (tls || !takeRefusalInFlight()) {
            child.unsafe().closeForcibly();
            return;
        }
        // Registered like any connection, to send its answer; TsoChannelInitializer builds no pipeline for it.
        child.attr(ConnectionSlot.REFUSAL).set(new ErrorReply(0, ErrorCode.OVERLOADED, why + "; retry later"));
        child.closeFuture().addListener(closed -> refusalAnswered());
        ctx.fireChannelRead(child);
    }

    private synchronized boolean takeRefusalInFlight() {
        if (refusalsInFlight >= REFUSALS_IN_FLIGHT) {
            return false;
        }
        refusalsInFlight++;
        return true;
    }

    private synchronized void refusalAnswered() {
        refusalsInFlight--;
    }
}
