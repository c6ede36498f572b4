package io.tidemark.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;

/**
 * Cuts the byte stream into frame bodies. A negative or over-long length is a {@link ProtocolException} with
 * {@link ErrorCode#FRAME_TOO_LARGE} or {@link ErrorCode#MALFORMED}, so the peer can be told why it is dropped.
 */
public final class FrameDecoder extends LengthFieldBasedFrameDecoder {

    private final int maxFrameBytes;

    FrameDecoder(int maxFrameBytes) {
        super(Integer.MAX_VALUE, 0, Protocol.LENGTH_FIELD_BYTES, 0, Protocol.LENGTH_FIELD_BYTES);
        if (maxFrameBytes < 1) {
            throw new IllegalArgumentException("maximum frame size must be positive, was " + maxFrameBytes);
        }
        this.maxFrameBytes = maxFrameBytes;
    }

    @Override
    protected Object decode(ChannelHandlerContext ctx, ByteBuf in) throws Exception {
        if (in.readableBytes() >= Protocol.LENGTH_FIELD_BYTES) {
            int length = in.getInt(in.readerIndex());
            if (length < 1) {
                throw new ProtocolException(ErrorCode.MALFORMED, "frame length " + length + " is not positive");
            }
            if (length > maxFrameBytes) {
                throw new ProtocolException(ErrorCode.FRAME_TOO_LARGE,
                        "frame of " + length + " bytes exceeds the maximum of " + maxFrameBytes);
            }
        }
        return super.decode(ctx, in);
    }
}
