package io.tidemark.tso.netty;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.tidemark.protocol.ErrorCode;
import io.tidemark.protocol.Hello;
import io.tidemark.protocol.HelloReply;
import io.tidemark.protocol.Message;
import io.tidemark.protocol.Protocol;
import io.tidemark.protocol.ProtocolException;

/**
 * Accepts the connection's first message, which must be a HELLO we speak. An active TSO answers with its
 * incarnation (commit mode, conflict level, epoch) and hands the connection to that incarnation's requests; a standby
 * answers {@code NOT_ACTIVE}.
 */
final class HandshakeHandler extends ChannelInboundHandlerAdapter {

    private final ServingGate gate;

    HandshakeHandler(ServingGate gate) {
        this.gate = gate;
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
                    + " is not supported: this TSO speaks version " + Protocol.VERSION);
        }
        ServingGate.Incarnation incarnation = gate.incarnationForHello();
        ctx.pipeline().replace(this, "requests", new RequestHandler(incarnation.processor));
        ctx.writeAndFlush(new HelloReply(Protocol.VERSION, incarnation.settings.commitMode(),
                incarnation.settings.conflictLevel(), incarnation.epoch), ctx.voidPromise());
    }
}
