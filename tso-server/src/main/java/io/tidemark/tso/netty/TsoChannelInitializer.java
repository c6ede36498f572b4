package io.tidemark.tso.netty;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.tidemark.protocol.CommitMode;
import io.tidemark.protocol.MessageDecoder;
import io.tidemark.protocol.MessageEncoder;
import io.tidemark.tso.TsoMetrics;
import io.tidemark.tso.processing.TransactionProcessor;

/** Builds each client connection's pipeline: framing, codec, handshake, requests, error replies. */
public final class TsoChannelInitializer extends ChannelInitializer<SocketChannel> {

    private final int maxFrameBytes;
    private final CommitMode commitMode;
    private final long epoch;
    private final RequestHandler requestHandler;
    private final TsoMetrics metrics;
    private final ChannelGroup openConnections;

    public TsoChannelInitializer(int maxFrameBytes, CommitMode commitMode, long epoch, TransactionProcessor processor,
                                 TsoMetrics metrics, ChannelGroup openConnections) {
        this.maxFrameBytes = maxFrameBytes;
        this.commitMode = commitMode;
        this.epoch = epoch;
        this.requestHandler = new RequestHandler(processor);
        this.metrics = metrics;
        this.openConnections = openConnections;
    }

    @Override
    protected void initChannel(SocketChannel channel) {
        openConnections.add(channel);
        channel.config().setTcpNoDelay(true);
        channel.pipeline()
                .addLast("frames", MessageDecoder.frameDecoder(maxFrameBytes))
                .addLast("decoder", MessageDecoder.INSTANCE)
                .addLast("encoder", MessageEncoder.INSTANCE)
                .addLast("handshake", new HandshakeHandler(commitMode, epoch))
                .addLast("requests", requestHandler)
                .addLast("errors", new ErrorReplyHandler(metrics));
    }
}
