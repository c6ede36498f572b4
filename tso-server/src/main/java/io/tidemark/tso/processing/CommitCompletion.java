package io.tidemark.tso.processing;

import io.netty.channel.ChannelHandlerContext;

/**
 * How the commit mode turns a start timestamp or a successful conflict check into a reply. Called on the event loop
 * only; replies are written (not flushed) to {@code client}, whose read-complete flushes them.
 */
public interface CommitCompletion extends AutoCloseable {

    void begun(ChannelHandlerContext client, long requestId, long startTimestamp, long commitToken);

    void committed(ChannelHandlerContext client, long requestId, long startTimestamp, long commitTimestamp);

    @Override
    void close();
}
