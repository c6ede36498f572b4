package io.tidemark.tso;

/**
 * The resident memory a TSO process stays within, as a formula of its settings (docs/operations.md, "Memory"): its
 * heap, plus what clients can make it hold outside the heap, plus the JVM's own needs. Clients cannot hold more:
 * partial frames over all connections stay within their budget, and each connection's unsent replies within its limit.
 */
public final class TsoMemory {

    /**
     * What one connection holds outside the heap besides its unsent replies: one read buffer (at most 16 KiB), the TLS
     * record in progress and the one being encrypted (about 17 KiB each), and a frame in progress of up to 16 KiB.
     */
    public static final long PER_CONNECTION_BYTES = 64 * 1024;
    /** The JVM besides its heap: compiled code, class metadata, thread stacks, the garbage collector's structures. */
    public static final long JVM_BYTES = 256L << 20;

    private TsoMemory() {
    }

    /**
     * The resident-memory bound of a TSO with {@code settings} in a JVM whose heap may grow to {@code maxHeapBytes}
     * ({@code -Xmx}): heap + {@code max-buffered-frame-bytes} + {@code max-connections} x
     * ({@code max-pending-reply-bytes} + {@value #PER_CONNECTION_BYTES}) + {@value #JVM_BYTES}.
     */
    public static long residentBound(TsoSettings settings, long maxHeapBytes) {
        return maxHeapBytes + settings.maxBufferedFrameBytes()
                + (long) settings.maxConnections() * (settings.maxPendingReplyBytes() + PER_CONNECTION_BYTES)
                + JVM_BYTES;
    }
}
