package io.tidemark.tso.netty;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.tidemark.protocol.BeginRequest;
import io.tidemark.protocol.CommitRequest;
import io.tidemark.protocol.ErrorCode;
import io.tidemark.protocol.Message;
import io.tidemark.protocol.ProtocolException;
import io.tidemark.tso.processing.TransactionProcessor;

/**
 * Dispatches BEGIN and COMMIT to the processor of the TSO incarnation that answered the connection's HELLO, on behalf
 * of the client identified at HELLO. Replies are only written here; they are flushed once per read batch (through
 * {@link ReplyGateHandler}), so pipelined requests share system calls. One per connection; every connection lives on
 * the one event loop.
 */
final class RequestHandler extends ChannelInboundHandlerAdapter {

    private final TransactionProcessor processor;
    private final long clientIdentity;

    RequestHandler(TransactionProcessor processor, long clientIdentity) {
        this.processor = processor;
        this.clientIdentity = clientIdentity;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Message message = (Message) msg;
        switch (message.type()) {
            case BEGIN:
                processor.begin(ctx, ((BeginRequest) message).requestId(), clientIdentity);
                break;
            case COMMIT:
                processor.commit(ctx, (CommitRequest) message, clientIdentity);
                break;
            default:
                throw new ProtocolException(ErrorCode.UNEXPECTED_MESSAGE,
                        message.type() + " is not a request: after HELLO a client sends BEGIN or COMMIT");
        }
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        ctx.flush();
    }
}
