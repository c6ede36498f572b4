package io.tidemark.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageDecoder;

import java.util.List;

/** Pipeline stage that turns one complete frame body (as cut by {@link #frameDecoder}) into a {@link Message}. */
@ChannelHandler.Sharable
public final class MessageDecoder extends MessageToMessageDecoder<ByteBuf> {

    public static final MessageDecoder INSTANCE = new MessageDecoder();

    private MessageDecoder() {
        super(ByteBuf.class);
    }

    /** The stage that cuts the byte stream into frame bodies, refusing any longer than {@code maxFrameBytes}. */
    public static FrameDecoder frameDecoder(int maxFrameBytes) {
        return new FrameDecoder(maxFrameBytes);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf frame, List<Object> out) {
        out.add(MessageCodec.decode(frame));
    }
}
