package io.tidemark.tso.netty;

import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.tidemark.protocol.ErrorReply;
import io.tidemark.protocol.MessageDecoder;
import io.tidemark.protocol.MessageEncoder;
import io.tidemark.protocol.Protocol;
import io.tidemark.tso.TsoMetrics;
import io.tidemark.tso.TsoSettings;
import org.jspecify.annotations.Nullable;

/**
 * Builds each client connection's pipeline: transport check (then TLS, when enabled), reply gate, partial-frame watch,
 * framing (tiny frames until HELLO), codec, handshake timeout, handshake (then flow control and requests), error
 * replies. A connection the admission refused at accept ({@link ConnectionAdmission}) gets no pipeline, only its
 * refusal.
 */
public final class TsoChannelInitializer extends ChannelInitializer<SocketChannel> {

    /**
     * One read per connection each time the event loop looks at the sockets (Netty's default is 16), of at most
     * 16 KiB: what one connection sent is decoded a little at a time, between other connections' reads, instead of up
     * to a megabyte at once.
     */
    private static final RecvByteBufAllocator READS = new AdaptiveRecvByteBufAllocator(64, 2048, 16 * 1024)
            .maxMessagesPerRead(1);

    private final TsoSettings settings;
    private final @Nullable TlsHandshakes tls;
    private final ReplyGateHandler replyGate;
    private final ServingGate gate;
    private final TsoMetrics metrics;
    private final ConnectionLogs logs;
    private final ChannelGroup openConnections;
    private final FairTurns turns;
    private final FrameBudget frameBudget;
    private final WriteBufferWaterMark pendingReplies;

    /**
     * @param tls TLS when it is enabled, else null
     * @param loop the event loop every connection lives on
     */
    public TsoChannelInitializer(TsoSettings settings, @Nullable TlsHandshakes tls, ServingGate gate,
                                 TsoMetrics metrics, ConnectionLogs logs, ChannelGroup openConnections,
                                 EventLoop loop) {
        this.settings = settings;
        this.tls = tls;
        this.replyGate = new ReplyGateHandler(gate);
        this.gate = gate;
        this.metrics = metrics;
        this.logs = logs;
        this.openConnections = openConnections;
        this.turns = new FairTurns(loop);
        this.frameBudget = new FrameBudget(settings.maxBufferedFrameBytes());
        metrics.registerFrameBudget(frameBudget::total);
        this.pendingReplies = new WriteBufferWaterMark(settings.maxPendingReplyBytes() / 2,
                settings.maxPendingReplyBytes());
    }

    @Override
    protected void initChannel(SocketChannel channel) {
        if (gate.isStopped()) {
            channel.close();
            return;
        }
        ErrorReply refusal = channel.attr(ConnectionSlot.REFUSAL).get();
        if (refusal != null) {
            channel.writeAndFlush(MessageEncoder.frame(channel.alloc(), refusal))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        openConnections.add(channel);
        channel.config().setTcpNoDelay(true);
        channel.config().setWriteBufferWaterMark(pendingReplies);
        channel.config().setRecvByteBufAllocator(READS);
        channel.pipeline()
                .addLast("transport", new TransportCheck(tls, settings.handshakeTimeoutMs(), logs))
                .addLast("reply-gate", replyGate)
                .addLast("partial-frames", new PartialFrames(frameBudget, settings.frameTimeoutMs(), metrics, logs))
                .addLast("frames", MessageDecoder.frameDecoder(Protocol.MAX_HELLO_FRAME_BYTES))
                .addLast("decoder", MessageDecoder.INSTANCE)
                .addLast("encoder", MessageEncoder.INSTANCE)
                .addLast("handshake-timeout", new HandshakeTimeout(settings.handshakeTimeoutMs(), metrics, logs))
                .addLast("handshake", new HandshakeHandler(gate, settings, metrics, logs, turns))
                .addLast("errors", new ErrorReplyHandler(metrics, logs));
    }
}
