package io.tidemark.protocol;

import io.netty.buffer.ByteBuf;
import io.tidemark.certificate.Seal;
import io.tidemark.writeset.ConflictLevel;

import java.nio.charset.StandardCharsets;

/**
 * Encodes and decodes message bodies: the type byte and what follows it, without the length prefix. The layout of
 * every message is documented in docs/wire-protocol.md; this class is its only implementation.
 */
public final class MessageCodec {

    private MessageCodec() {
    }

    /** Writes the type byte and body of {@code message} into {@code out}. */
    public static void encode(Message message, ByteBuf out) {
        out.writeByte(message.type().code());
        switch (message.type()) {
            case HELLO: {
                Hello m = (Hello) message;
                out.writeInt(m.magic());
                out.writeShort(m.version());
                break;
            }
            case HELLO_REPLY: {
                HelloReply m = (HelloReply) message;
                out.writeShort(m.version());
                out.writeByte(m.commitMode().code());
                out.writeByte(m.conflictLevel().code());
                out.writeLong(m.epoch());
                out.writeInt(m.maxWriteSet());
                out.writeInt(m.idleTimeoutMs());
                break;
            }
            case BEGIN:
                out.writeLong(((BeginRequest) message).requestId());
                break;
            case BEGIN_REPLY: {
                BeginReply m = (BeginReply) message;
                out.writeLong(m.requestId());
                out.writeLong(m.startTimestamp());
                out.writeLong(m.commitToken());
                break;
            }
            case COMMIT: {
                CommitRequest m = (CommitRequest) message;
                out.writeLong(m.requestId());
                out.writeLong(m.startTimestamp());
                out.writeLong(m.commitToken());
                writeLongs(out, m.writeSet());
                writeLongs(out, m.tableIds());
                break;
            }
            case COMMITTED: {
                CommittedReply m = (CommittedReply) message;
                out.writeLong(m.requestId());
                out.writeLong(m.startTimestamp());
                out.writeLong(m.commitTimestamp());
                out.writeBytes(m.certificate().encode());
                out.writeBytes(m.releaseToken().encode());
                break;
            }
            case ABORTED: {
                AbortedReply m = (AbortedReply) message;
                out.writeLong(m.requestId());
                out.writeLong(m.startTimestamp());
                out.writeByte(m.reason().code());
                break;
            }
            case ERROR: {
                ErrorReply m = (ErrorReply) message;
                out.writeLong(m.requestId());
                out.writeShort(m.code().code());
                byte[] text = truncatedUtf8(m.text());
                out.writeShort(text.length);
                out.writeBytes(text);
                break;
            }
            default:
                throw new IllegalArgumentException("cannot encode " + message.type());
        }
    }

    /** Body size of a COMMIT with {@code writeSetIds} write-set ids and {@code tableIds} table ids. */
    public static long commitBodyBytes(int writeSetIds, int tableIds) {
        return 1 + 8 + 8 + 8 + 4 + 8L * writeSetIds + 4 + 8L * tableIds;
    }

    /** Upper bound of the encoded body size of {@code message}, for buffer allocation. */
    public static int encodedSizeHint(Message message) {
        if (message instanceof CommitRequest) {
            CommitRequest m = (CommitRequest) message;
            return (int) commitBodyBytes(m.writeSet().length, m.tableIds().length);
        }
        if (message instanceof ErrorReply) {
            return 1 + 8 + 2 + 2 + ErrorReply.MAX_TEXT_BYTES;
        }
        return 1 + 24;
    }

    /**
     * Reads one message from a complete frame body (type byte first). The whole body must be consumed.
     *
     * @throws ProtocolException when the body is truncated, has trailing bytes, or has an unknown type or enum code
     */
    public static Message decode(ByteBuf in) {
        if (!in.isReadable()) {
            throw new ProtocolException(ErrorCode.MALFORMED, "empty frame");
        }
        byte code = in.readByte();
        MessageType type = MessageType.fromCode(code);
        if (type == null) {
            throw new ProtocolException(ErrorCode.UNEXPECTED_MESSAGE, "unknown message type " + code);
        }
        Message message;
        switch (type) {
            case HELLO:
                need(in, 6, type);
                message = new Hello(in.readInt(), in.readShort());
                break;
            case HELLO_REPLY:
                need(in, 20, type);
                message = new HelloReply(in.readShort(), CommitMode.fromCode(in.readByte()),
                        ConflictLevel.fromCode(in.readByte()), in.readLong(), in.readInt(), in.readInt());
                break;
            case BEGIN:
                need(in, 8, type);
                message = new BeginRequest(in.readLong());
                break;
            case BEGIN_REPLY:
                need(in, 24, type);
                message = new BeginReply(in.readLong(), in.readLong(), in.readLong());
                break;
            case COMMIT: {
                need(in, 24, type);
                long requestId = in.readLong();
                long start = in.readLong();
                long token = in.readLong();
                long[] writeSet = readLongs(in, type, "write set");
                long[] tables = readLongs(in, type, "table ids");
                message = new CommitRequest(requestId, start, token, writeSet, tables);
                break;
            }
            case COMMITTED: {
                need(in, 24 + 2 * Seal.BYTES, type);
                long requestId = in.readLong();
                long start = in.readLong();
                long commit = in.readLong();
                message = new CommittedReply(requestId, start, commit, readSeal(in), readSeal(in));
                break;
            }
            case ABORTED:
                need(in, 17, type);
                message = new AbortedReply(in.readLong(), in.readLong(), AbortReason.fromCode(in.readByte()));
                break;
            case ERROR: {
                need(in, 12, type);
                long requestId = in.readLong();
                ErrorCode errorCode = ErrorCode.fromCode(in.readShort());
                int length = in.readUnsignedShort();
                need(in, length, type);
                String text = in.readCharSequence(length, StandardCharsets.UTF_8).toString();
                message = new ErrorReply(requestId, errorCode, text);
                break;
            }
            default:
                throw new ProtocolException(ErrorCode.UNEXPECTED_MESSAGE, "unknown message type " + code);
        }
        if (in.isReadable()) {
            throw new ProtocolException(ErrorCode.MALFORMED,
                    in.readableBytes() + " unexpected trailing bytes after " + type);
        }
        return message;
    }

    private static Seal readSeal(ByteBuf in) {
        byte[] seal = new byte[Seal.BYTES];
        in.readBytes(seal);
        return Seal.decode(seal, 0);
    }

    private static void writeLongs(ByteBuf out, long[] values) {
        out.writeInt(values.length);
        for (long v : values) {
            out.writeLong(v);
        }
    }

    private static long[] readLongs(ByteBuf in, MessageType type, String what) {
        need(in, 4, type);
        int count = in.readInt();
        if (count < 0 || (long) count * 8 > in.readableBytes()) {
            throw new ProtocolException(ErrorCode.MALFORMED,
                    type + " announces " + count + " " + what + " entries but " + in.readableBytes()
                            + " bytes remain");
        }
        long[] values = new long[count];
        for (int i = 0; i < count; i++) {
            values[i] = in.readLong();
        }
        return values;
    }

    private static void need(ByteBuf in, int bytes, MessageType type) {
        if (in.readableBytes() < bytes) {
            throw new ProtocolException(ErrorCode.MALFORMED,
                    "truncated " + type + ": needs " + bytes + " more bytes, has " + in.readableBytes());
        }
    }

    private static byte[] truncatedUtf8(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= ErrorReply.MAX_TEXT_BYTES) {
            return bytes;
        }
        String cut = text;
        while (bytes.length > ErrorReply.MAX_TEXT_BYTES) {
            cut = cut.substring(0, cut.length() * 3 / 4);
            bytes = cut.getBytes(StandardCharsets.UTF_8);
        }
        return bytes;
    }
}
