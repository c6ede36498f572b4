package io.tidemark.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToByteEncoder;
import org.jspecify.annotations.Nullable;

/** Pipeline stage that frames outgoing messages: a 4-byte length, then the body from {@link MessageCodec}. */
@ChannelHandler.Sharable
public final class MessageEncoder extends MessageToByteEncoder<Message> {

    public static final MessageEncoder INSTANCE = new MessageEncoder();

    private MessageEncoder() {
        super(Message.class);
    }

    /**
     * {@code message} framed as on the wire, for writing below the codec (e.g. an ERROR sent before the pipeline's
     * codec is in place).
     */
    public static ByteBuf frame(ByteBufAllocator alloc, Message message) {
        ByteBuf out = alloc.buffer(Protocol.LENGTH_FIELD_BYTES + MessageCodec.encodedSizeHint(message));
        INSTANCE.encode(null, message, out);
        return out;
    }

    @Override
    protected ByteBuf allocateBuffer(ChannelHandlerContext ctx, Message msg, boolean preferDirect) {
        int size = Protocol.LENGTH_FIELD_BYTES + MessageCodec.encodedSizeHint(msg);
        return preferDirect ? ctx.alloc().ioBuffer(size) : ctx.alloc().heapBuffer(size);
    }

    @Override
    protected void encode(@Nullable ChannelHandlerContext ctx, Message msg, ByteBuf out) {
        int lengthIndex = out.writerIndex();
        out.writeInt(0);
        MessageCodec.encode(msg, out);
        out.setInt(lengthIndex, out.writerIndex() - lengthIndex - Protocol.LENGTH_FIELD_BYTES);
    }
}
