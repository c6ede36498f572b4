package io.tidemark.tso.netty;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslHandler;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.protocol.ErrorCode;
import io.tidemark.protocol.ErrorReply;
import io.tidemark.protocol.MessageEncoder;
import io.tidemark.protocol.Protocol;

import org.jspecify.annotations.Nullable;
import java.util.List;

/**
 * First stage of every connection: tells a TLS client from a plaintext one by its first bytes, before anything else
 * reads them. When the TSO speaks what the client speaks, it steps aside (replaced by the TLS handler, or removed).
 * Otherwise the client is refused with a plaintext ERROR that names the setting to change, the refusal is logged
 * (once per burst), and the connection is closed: a plaintext client of a TLS-only TSO reads
 * {@code ERROR TLS_REQUIRED}; a TLS client of a plaintext TSO cannot read it, but sees a plaintext answer, which its
 * TLS layer reports.
 */
final class TransportCheck extends ByteToMessageDecoder {

    /** Bytes needed to recognize a TLS record header. */
    private static final int HEADER_BYTES = 5;
    /** The lowest and highest TLS record content types, and the major version of every TLS version. */
    private static final int TLS_CHANGE_CIPHER_SPEC = 20;
    private static final int TLS_HEARTBEAT = 24;
    private static final int TLS_MAJOR_VERSION = 3;

    private final @Nullable TlsHandshakes tls;
    private final int handshakeTimeoutMs;
    private final ConnectionLogs logs;

    /** @param tls the TSO's TLS, or null when it speaks plaintext */
    TransportCheck(@Nullable TlsHandshakes tls, int handshakeTimeoutMs, ConnectionLogs logs) {
        this.tls = tls;
        this.handshakeTimeoutMs = handshakeTimeoutMs;
        this.logs = logs;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int readable = in.readableBytes();
        if (readable == 0) {
            return;
        }
        boolean clientSpeaksTls;
        if (!mayStartTlsRecord(in)) {
            // Decided from the first bytes, so a plaintext frame's length is checked the moment it arrives.
            clientSpeaksTls = false;
        } else if (tls == null && readable >= Protocol.LENGTH_FIELD_BYTES) {
            // A TLS client, or a plaintext frame longer than any the TSO accepts before HELLO: refused either way.
            clientSpeaksTls = true;
        } else if (readable < HEADER_BYTES) {
            return;
        } else {
            clientSpeaksTls = SslHandler.isEncrypted(in, false);
        }
        if (tls != null && clientSpeaksTls) {
            SslHandler handler = tls.newHandler(ctx.channel());
            handler.setHandshakeTimeoutMillis(handshakeTimeoutMs);
            ctx.pipeline().replace(this, "tls", handler);
            return;
        }
        if (tls == null && !clientSpeaksTls) {
            ctx.pipeline().remove(this);
            return;
        }
        in.skipBytes(in.readableBytes());
        ctx.channel().config().setAutoRead(false);
        ErrorReply refusal;
        if (tls != null) {
            refusal = new ErrorReply(0, ErrorCode.TLS_REQUIRED, "this TSO requires TLS: set "
                    + TidemarkConfig.CLIENT_TSO_TLS_ENABLED + "=true (and " + TidemarkConfig.CLIENT_TSO_TLS_TRUST
                    + " to the CA of the TSO's certificate) in the client's configuration");
            logs.wrongTransport.warn("Refused plaintext client " + ctx.channel().remoteAddress() + ": this TSO"
                    + " requires TLS (" + TidemarkConfig.TSO_TLS_ENABLED + "); the client must set "
                    + TidemarkConfig.CLIENT_TSO_TLS_ENABLED + "=true");
        } else {
            refusal = new ErrorReply(0, ErrorCode.MALFORMED, "this TSO does not speak TLS: set "
                    + TidemarkConfig.CLIENT_TSO_TLS_ENABLED + "=false, or enable TLS on the TSO ("
                    + TidemarkConfig.TSO_TLS_ENABLED + ")");
            logs.wrongTransport.warn("Refused TLS client " + ctx.channel().remoteAddress() + ": this TSO does not"
                    + " speak TLS (" + TidemarkConfig.TSO_TLS_ENABLED + "=false); the client must set "
                    + TidemarkConfig.CLIENT_TSO_TLS_ENABLED + "=false, or the TSO enable TLS");
        }
        ctx.writeAndFlush(MessageEncoder.frame(ctx.alloc(), refusal)).addListener(ChannelFutureListener.CLOSE);
    }

    /**
     * Whether the bytes so far may begin a TLS record: a content type from 20 to 23, then major version 3. A plaintext
     * frame before HELLO never does: its length, at most {@code Protocol.MAX_HELLO_FRAME_BYTES}, begins with a zero.
     */
    private static boolean mayStartTlsRecord(ByteBuf in) {
        int contentType = in.getUnsignedByte(in.readerIndex());
        if (contentType < TLS_CHANGE_CIPHER_SPEC || contentType > TLS_HEARTBEAT) {
            return false;
        }
        return in.readableBytes() < 2 || in.getUnsignedByte(in.readerIndex() + 1) == TLS_MAJOR_VERSION;
    }
}
