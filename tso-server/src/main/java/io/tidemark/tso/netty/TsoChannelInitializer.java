package io.tidemark.tso.netty;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.tidemark.protocol.MessageDecoder;
import io.tidemark.protocol.MessageEncoder;
import io.tidemark.tso.TsoMetrics;

/** Builds each client connection's pipeline: reply gate, framing, codec, handshake, requests, error replies. */
public final class TsoChannelInitializer extends ChannelInitializer<SocketChannel> {

    private final int maxFrameBytes;
    private final ReplyGateHandler replyGate;
    private final ServingGate gate;
    private final TsoMetrics metrics;
    private final ChannelGroup openConnections;

    public TsoChannelInitializer(int maxFrameBytes, ServingGate gate, TsoMetrics metrics,
                                 ChannelGroup openConnections) {
        this.maxFrameBytes = maxFrameBytes;
        this.replyGate = new ReplyGateHandler(gate);
        this.gate = gate;
        this.metrics = metrics;
        this.openConnections = openConnections;
    }

    @Override
    protected void initChannel(SocketChannel channel) {
        if (gate.isStopped()) {
            channel.close();
            return;
        }
        openConnections.add(channel);
        channel.config().setTcpNoDelay(true);
        channel.pipeline()
                .addLast("reply-gate", replyGate)
                .addLast("frames", MessageDecoder.frameDecoder(maxFrameBytes))
                .addLast("decoder", MessageDecoder.INSTANCE)
                .addLast("encoder", MessageEncoder.INSTANCE)
                .addLast("handshake", new HandshakeHandler(gate))
                .addLast("errors", new ErrorReplyHandler(metrics));
    }
}
