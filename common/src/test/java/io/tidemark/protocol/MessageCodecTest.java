package io.tidemark.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import io.tidemark.certificate.DecisionKey;
import io.tidemark.writeset.ConflictLevel;
import org.junit.jupiter.api.Test;

import java.security.SecureRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MessageCodecTest {

    private static Message roundTrip(Message message) {
        EmbeddedChannel out = new EmbeddedChannel(MessageEncoder.INSTANCE);
        out.writeOutbound(message);
        ByteBuf wire = out.readOutbound();
        EmbeddedChannel in = new EmbeddedChannel(MessageDecoder.frameDecoder(1024), MessageDecoder.INSTANCE);
        in.writeInbound(wire);
        return in.readInbound();
    }

    @Test
    void everyMessageSurvivesTheWire() {
        Hello hello = (Hello) roundTrip(Hello.current());
        assertEquals(Protocol.MAGIC, hello.magic());
        assertEquals(Protocol.VERSION, hello.version());

        HelloReply helloReply = (HelloReply) roundTrip(
                new HelloReply((short) 1, CommitMode.BATCHED, ConflictLevel.ROW, 77L, 10_000, 300_000));
        assertEquals(CommitMode.BATCHED, helloReply.commitMode());
        assertEquals(ConflictLevel.ROW, helloReply.conflictLevel());
        assertEquals(77L, helloReply.epoch());
        assertEquals(10_000, helloReply.maxWriteSet());
        assertEquals(300_000, helloReply.idleTimeoutMs());

        assertEquals(5L, ((BeginRequest) roundTrip(new BeginRequest(5))).requestId());
        BeginReply beginReply = (BeginReply) roundTrip(new BeginReply(5, 4096, -123456789L));
        assertEquals(4096, beginReply.startTimestamp());
        assertEquals(-123456789L, beginReply.commitToken());

        CommitRequest commit = (CommitRequest) roundTrip(
                new CommitRequest(9, 8192, 31337, new long[] {1, -2, Long.MAX_VALUE}, new long[] {42}));
        assertEquals(8192, commit.startTimestamp());
        assertEquals(31337, commit.commitToken());
        assertArrayEquals(new long[] {1, -2, Long.MAX_VALUE}, commit.writeSet());
        assertArrayEquals(new long[] {42}, commit.tableIds());

        DecisionKey key = DecisionKey.generate(4096, new SecureRandom());
        CommittedReply committed = (CommittedReply) roundTrip(new CommittedReply(9, 8192, 12288,
                key.commitCertificate(8192, 12288), key.releaseToken(8192)));
        assertEquals(12288, committed.commitTimestamp());
        assertTrue(key.certifiesCommit(committed.certificate(), 8192, 12288), "the certificate crosses the wire");
        assertTrue(key.releases(committed.releaseToken(), 8192));

        AbortedReply aborted = (AbortedReply) roundTrip(new AbortedReply(9, 8192, AbortReason.CONFLICT));
        assertEquals(AbortReason.CONFLICT, aborted.reason());

        ErrorReply error = (ErrorReply) roundTrip(new ErrorReply(3, ErrorCode.MALFORMED, "bad frame é"));
        assertEquals(ErrorCode.MALFORMED, error.code());
        assertEquals("bad frame é", error.text());
    }

    @Test
    void longErrorTextIsCutToTheWireLimit() {
        String text = "x".repeat(5000);
        ErrorReply error = (ErrorReply) roundTrip(new ErrorReply(0, ErrorCode.INTERNAL, text));
        assertTrue(error.text().length() <= ErrorReply.MAX_TEXT_BYTES);
        assertTrue(error.text().length() > ErrorReply.MAX_TEXT_BYTES / 2);
        assertTrue(text.startsWith(error.text()));
    }

    @Test
    void truncatedBodyIsMalformed() {
        ByteBuf body = Unpooled.buffer().writeByte(MessageType.COMMIT.code()).writeLong(1).writeInt(3);
        ProtocolException e = assertThrows(ProtocolException.class, () -> MessageCodec.decode(body));
        assertEquals(ErrorCode.MALFORMED, e.errorCode());
    }

    @Test
    void writeSetCountBeyondTheFrameIsMalformed() {
        ByteBuf body = Unpooled.buffer().writeByte(MessageType.COMMIT.code()).writeLong(1).writeLong(4096)
                .writeInt(Integer.MAX_VALUE).writeLong(7);
        ProtocolException e = assertThrows(ProtocolException.class, () -> MessageCodec.decode(body));
        assertEquals(ErrorCode.MALFORMED, e.errorCode());
    }

    @Test
    void trailingBytesAreMalformed() {
        ByteBuf body = Unpooled.buffer().writeByte(MessageType.BEGIN.code()).writeLong(1).writeByte(0);
        ProtocolException e = assertThrows(ProtocolException.class, () -> MessageCodec.decode(body));
        assertEquals(ErrorCode.MALFORMED, e.errorCode());
    }

    @Test
    void unknownTypeIsUnexpected() {
        ByteBuf body = Unpooled.buffer().writeByte(99).writeLong(1);
        ProtocolException e = assertThrows(ProtocolException.class, () -> MessageCodec.decode(body));
        assertEquals(ErrorCode.UNEXPECTED_MESSAGE, e.errorCode());
    }

    @Test
    void oversizedFrameIsRefusedBeforeItIsBuffered() {
        EmbeddedChannel in = new EmbeddedChannel(MessageDecoder.frameDecoder(64), MessageDecoder.INSTANCE);
        DecoderException e = assertThrows(DecoderException.class,
                () -> in.writeInbound(Unpooled.buffer().writeInt(1_000_000).writeByte(3)));
        ProtocolException cause = assertInstanceOf(ProtocolException.class, e.getCause());
        assertEquals(ErrorCode.FRAME_TOO_LARGE, cause.errorCode());
    }

    @Test
    void raisedMaximumAppliesToLaterFrames() {
        FrameDecoder frames = MessageDecoder.frameDecoder(Protocol.MAX_HELLO_FRAME_BYTES);
        EmbeddedChannel in = new EmbeddedChannel(frames, MessageDecoder.INSTANCE);
        in.writeInbound(MessageEncoder.frame(in.alloc(), Hello.current()));
        assertInstanceOf(Hello.class, in.readInbound());
        CommitRequest commit = new CommitRequest(1, 4096, 2, new long[20], new long[1]);
        assertThrows(DecoderException.class, () -> in.writeInbound(MessageEncoder.frame(in.alloc(), commit)),
                "a COMMIT is longer than the maximum before HELLO");

        EmbeddedChannel raised = new EmbeddedChannel(MessageDecoder.frameDecoder(Protocol.MAX_HELLO_FRAME_BYTES),
                MessageDecoder.INSTANCE);
        raised.pipeline().get(FrameDecoder.class).maxFrameBytes(4096);
        raised.writeInbound(MessageEncoder.frame(raised.alloc(), commit));
        assertEquals(20, ((CommitRequest) raised.readInbound()).writeSet().length);
    }

    @Test
    void helloFitsTheFrameAllowedBeforeHello() {
        assertTrue(MessageCodec.encodedSizeHint(Hello.current()) <= Protocol.MAX_HELLO_FRAME_BYTES);
    }

    @Test
    void nonPositiveFrameLengthIsMalformed() {
        EmbeddedChannel in = new EmbeddedChannel(MessageDecoder.frameDecoder(64), MessageDecoder.INSTANCE);
        DecoderException e = assertThrows(DecoderException.class,
                () -> in.writeInbound(Unpooled.buffer().writeInt(-5)));
        assertEquals(ErrorCode.MALFORMED, ((ProtocolException) e.getCause()).errorCode());
    }
}
