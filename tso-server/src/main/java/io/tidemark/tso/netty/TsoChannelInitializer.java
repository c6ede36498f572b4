package io.tidemark.tso.netty;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslContext;
import io.tidemark.protocol.MessageDecoder;
import io.tidemark.protocol.MessageEncoder;
import io.tidemark.protocol.Protocol;
import io.tidemark.tso.TsoMetrics;
import io.tidemark.tso.TsoSettings;

/**
 * Builds each client connection's pipeline: transport check (then TLS, when enabled), reply gate, framing (tiny
 * frames until HELLO), codec, handshake timeout, handshake (then flow control and requests), error replies. Refuses
 * connections beyond the maximum before building anything.
 */
public final class TsoChannelInitializer extends ChannelInitializer<SocketChannel> {

    private final TsoSettings settings;
    private final SslContext tls;
    private final ReplyGateHandler replyGate;
    private final ServingGate gate;
    private final TsoMetrics metrics;
    private final ConnectionLogs logs;
    private final ConnectionAdmission admission;
    private final ChannelGroup openConnections;
    private final WriteBufferWaterMark pendingReplies;

    /** @param tls the TLS context when TLS is enabled, else null */
    public TsoChannelInitializer(TsoSettings settings, SslContext tls, ServingGate gate, TsoMetrics metrics,
                                 ConnectionLogs logs, ConnectionAdmission admission, ChannelGroup openConnections) {
        this.settings = settings;
        this.tls = tls;
        this.replyGate = new ReplyGateHandler(gate);
        this.gate = gate;
        this.metrics = metrics;
        this.logs = logs;
        this.admission = admission;
        this.openConnections = openConnections;
        this.pendingReplies = new WriteBufferWaterMark(settings.maxPendingReplyBytes() / 2,
                settings.maxPendingReplyBytes());
    }

    @Override
    protected void initChannel(SocketChannel channel) {
        if (gate.isStopped()) {
            channel.close();
            return;
        }
        if (!admission.admit(channel)) {
            return;
        }
        openConnections.add(channel);
        channel.config().setTcpNoDelay(true);
        channel.config().setWriteBufferWaterMark(pendingReplies);
        channel.pipeline()
                .addLast("transport", new TransportCheck(tls, settings.handshakeTimeoutMs(), logs))
                .addLast("reply-gate", replyGate)
                .addLast("frames", MessageDecoder.frameDecoder(Protocol.MAX_HELLO_FRAME_BYTES))
                .addLast("decoder", MessageDecoder.INSTANCE)
                .addLast("encoder", MessageEncoder.INSTANCE)
                .addLast("handshake-timeout", new HandshakeTimeout(settings.handshakeTimeoutMs(), metrics, logs))
                .addLast("handshake", new HandshakeHandler(gate, settings, metrics, logs))
                .addLast("errors", new ErrorReplyHandler(metrics, logs));
    }
}
