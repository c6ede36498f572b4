package io.tidemark.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;

/**
 * Cuts the byte stream into frame bodies. A negative or over-long length is a {@link ProtocolException} with
 * {@link ErrorCode#FRAME_TOO_LARGE} or {@link ErrorCode#MALFORMED}, so the peer can be told why it is dropped. The
 * length is checked as soon as its 4 bytes arrive, before any of the body is buffered. The maximum may change during
 * the connection's life (the TSO allows only a tiny frame before HELLO); only the channel's event loop changes it.
 */
public final class FrameDecoder extends LengthFieldBasedFrameDecoder {

    private int maxFrameBytes;
    private long framesDecoded;

    FrameDecoder(int maxFrameBytes) {
        super(Integer.MAX_VALUE, 0, Protocol.LENGTH_FIELD_BYTES, 0, Protocol.LENGTH_FIELD_BYTES);
        maxFrameBytes(maxFrameBytes);
    }

    /** From now on, frames longer than {@code bytes} are refused. */
    public void maxFrameBytes(int bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException("maximum frame size must be positive, was " + bytes);
        }
        this.maxFrameBytes = bytes;
    }

    /** Frames cut from the stream so far. */
    public long framesDecoded() {
        return framesDecoded;
    }

    /**
     * Memory held for a frame received in part: the capacity of the buffer it accumulates in, or 0 when no frame is in
     * progress.
     */
    public int bufferedBytes() {
        ByteBuf buffered = internalBuffer();
        return buffered.isReadable() ? buffered.capacity() : 0;
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
        Object frame = super.decode(ctx, in);
        if (frame != null) {
            framesDecoded++;
        }
        return frame;
    }
}
