package io.tidemark.tso.netty;

import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The memory all connections together may hold in frames received in part
 * ({@code tidemark.tso.max-buffered-frame-bytes}). A client pays for a frame only as it sends it, but a connection that
 * stops halfway holds what it sent; thousands of them held a 1 GiB TSO's direct memory. Whenever the total passes the
 * budget, the connections whose partial frames are oldest are closed until it fits again: an honest client's frame
 * arrives within moments and is the youngest. Event-loop confined (every connection lives on the one event loop).
 */
public final class FrameBudget {

    private final long maxBytes;
    /** Connections holding a partial frame, the oldest first. */
    private final Set<PartialFrames> holders = new LinkedHashSet<>();
    /** Written on the event loop, read by the metrics. */
    private volatile long total;

    public FrameBudget(long maxBytes) {
        this.maxBytes = maxBytes;
    }

    /** Bytes held in partial frames over all connections. */
    public long total() {
        return total;
    }

    /**
     * {@code holder} now holds {@code bytes} (0: no frame in progress), having held {@code before}; {@code newFrame}
     * when the frame it holds was begun just now. Closes the oldest holders while the total passes the budget.
     */
    @SuppressWarnings("NonAtomicVolatileUpdate") // total has one writer, the event loop; volatile for the metrics
    void holds(PartialFrames holder, long before, long bytes, boolean newFrame) {
        total += bytes - before;
        if (bytes == 0) {
            holders.remove(holder);
        } else if (newFrame) {
            // Removed and added again: its frame is the youngest. A frame trickled in keeps its age.
            holders.remove(holder);
            holders.add(holder);
        }
        for (Iterator<PartialFrames> oldest = holders.iterator(); total > maxBytes && oldest.hasNext(); ) {
            PartialFrames victim = oldest.next();
            oldest.remove();
            total -= victim.dropForBudget(maxBytes);
        }
    }
}
