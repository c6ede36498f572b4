package io.tidemark.tso.processing;

import io.netty.channel.ChannelHandlerContext;

/**
 * How the commit mode turns a start timestamp or a successful conflict check into a reply. Called on the event loop
 * only; replies are written (not flushed) to {@code client}, whose read-complete flushes them.
 */
public interface CommitCompletion extends AutoCloseable {

    /** @param receivedNanos when the BEGIN was read ({@link System#nanoTime()}); the reply records its latency */
    void begun(ChannelHandlerContext client, long requestId, long startTimestamp, long commitToken,
               long receivedNanos);

    /** @param receivedNanos when the COMMIT was read ({@link System#nanoTime()}); the reply records its latency */
    void committed(ChannelHandlerContext client, long requestId, long startTimestamp, long commitTimestamp,
                   long receivedNanos);

    @Override
    void close();
}
