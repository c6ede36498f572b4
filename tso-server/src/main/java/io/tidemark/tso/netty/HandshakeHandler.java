package io.tidemark.tso.netty;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.ErrorCode;
import io.tidemark.protocol.FrameDecoder;
import io.tidemark.protocol.Hello;
import io.tidemark.protocol.HelloReply;
import io.tidemark.protocol.Message;
import io.tidemark.protocol.Protocol;
import io.tidemark.protocol.ProtocolException;
import io.tidemark.tso.TsoMetrics;
import io.tidemark.tso.TsoSettings;
import io.tidemark.tso.processing.CommitTokens;
import io.tidemark.tso.processing.InvalidRequestException;

import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.security.auth.x500.X500Principal;

/**
 * Accepts the connection's first message, which must be a HELLO we speak. An active TSO answers with its
 * incarnation (commit mode, conflict level, epoch) and limits, and hands the connection to that incarnation's
 * requests: from then on frames may be as large as {@code tidemark.tso.max-frame-bytes} (before, a few bytes), the
 * handshake timeout is off and the connection's flow is controlled ({@link RequestFlow}). With mutual TLS the client
 * certificate's subject must be allowed, and it becomes the client's identity for commit tokens. A standby answers
 * {@code NOT_ACTIVE}.
 */
final class HandshakeHandler extends ChannelInboundHandlerAdapter {

    private final ServingGate gate;
    private final TsoSettings settings;
    private final TsoMetrics metrics;
    private final ConnectionLogs logs;
    private final FairTurns turns;

    HandshakeHandler(ServingGate gate, TsoSettings settings, TsoMetrics metrics, ConnectionLogs logs,
                     FairTurns turns) {
        this.gate = gate;
        this.turns = turns;
        this.settings = settings;
        this.metrics = metrics;
        this.logs = logs;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Message message = (Message) msg;
        if (!(message instanceof Hello)) {
            throw new ProtocolException(ErrorCode.UNEXPECTED_MESSAGE,
                    "the first message must be HELLO, got " + message.type());
        }
        Hello hello = (Hello) message;
        if (hello.magic() != Protocol.MAGIC) {
            throw new ProtocolException(ErrorCode.UNSUPPORTED_VERSION, "HELLO magic 0x"
                    + Integer.toHexString(hello.magic()) + " is not 0x" + Integer.toHexString(Protocol.MAGIC)
                    + ": not a Tidemark client");
        }
        if (hello.version() != Protocol.VERSION) {
            throw new ProtocolException(ErrorCode.UNSUPPORTED_VERSION, "protocol version " + hello.version()
                    + " is not supported: this TSO speaks version " + Protocol.VERSION
                    + (hello.version() < Protocol.VERSION ? "; upgrade the client's Tidemark library" : ""));
        }
        ServingGate.Incarnation incarnation = gate.incarnationForHello();
        long identity = clientIdentity(ctx, incarnation.processor.tokens());
        ctx.pipeline().get(FrameDecoder.class).maxFrameBytes(settings.maxFrameBytes());
        ctx.pipeline().remove(HandshakeTimeout.class);
        ctx.pipeline().addBefore(ctx.name(), "flow", new RequestFlow(settings.maxRequestsInFlight(),
                settings.idleTimeoutMs(), settings.replyStallTimeoutMs(), settings.maxIdsPerSecond(), turns, metrics,
                logs));
        ctx.pipeline().replace(this, "requests", new RequestHandler(incarnation.processor, identity));
        ctx.writeAndFlush(new HelloReply(Protocol.VERSION, incarnation.settings.commitMode(),
                incarnation.settings.conflictLevel(), incarnation.epoch, settings.maxWriteSet(),
                settings.idleTimeoutMs()), ctx.voidPromise());
    }

    /** The client's identity for commit tokens: its certificate's subject with mutual TLS, else anonymous. */
    private long clientIdentity(ChannelHandlerContext ctx, CommitTokens tokens) {
        SslHandler tls = ctx.pipeline().get(SslHandler.class);
        if (tls == null || !settings.tls().clientCertificateRequired()) {
            return CommitTokens.ANONYMOUS;
        }
        X500Principal subject;
        try {
            Certificate[] chain = tls.engine().getSession().getPeerCertificates();
            subject = ((X509Certificate) chain[0]).getSubjectX500Principal();
        } catch (SSLPeerUnverifiedException e) {
            throw new InvalidRequestException(0, ErrorCode.NOT_AUTHORIZED, "this TSO requires a client certificate");
        }
        if (!settings.tls().allowedClients().isEmpty() && !settings.tls().allowedClients().contains(subject)) {
            throw new InvalidRequestException(0, ErrorCode.NOT_AUTHORIZED, "the client certificate subject '"
                    + subject + "' is not allowed by this TSO (" + TidemarkConfig.TSO_TLS_ALLOWED_CLIENTS + ")");
        }
        return tokens.identityOf(subject);
    }
}
