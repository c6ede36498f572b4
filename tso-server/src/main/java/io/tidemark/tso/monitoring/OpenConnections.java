package io.tidemark.tso.monitoring;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.netty.channel.Channel;

import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The HTTP endpoint's open connections, oldest first, at most a maximum: a new connection beyond it closes the oldest,
 * so connections held open on purpose cannot lock out a health check (which needs a connection for milliseconds).
 * Thread-safe: connections open and close on the endpoint's threads.
 */
final class OpenConnections {

    private final int max;
    @GuardedBy("this")
    private final Set<Channel> open = new LinkedHashSet<>();

    OpenConnections(int max) {
        this.max = max;
    }

    /** Counts {@code channel} in until it closes, closing the oldest connection when there are too many. */
    void add(Channel channel) {
        Channel oldest = null;
        synchronized (this) {
            if (open.size() >= max) {
                Iterator<Channel> first = open.iterator();
                oldest = first.next();
                first.remove();
            }
            open.add(channel);
        }
        channel.closeFuture().addListener(closed -> remove(channel));
        if (oldest != null) {
            oldest.close();
        }
    }

    private synchronized void remove(Channel channel) {
        open.remove(channel);
    }
}
