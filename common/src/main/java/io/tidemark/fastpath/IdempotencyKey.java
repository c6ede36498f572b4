package io.tidemark.fastpath;

import io.tidemark.encoding.CellEncoding;
import org.apache.hadoop.hbase.util.Bytes;

import java.util.Arrays;

/**
 * Names one fast-path write for as long as its client may re-send it (docs/fast-path.md, "Retries"): the client's
 * stream (128 random bits; a stream is used by one thread at a time) and the operation's sequence number, strictly
 * increasing within the stream. Every attempt of one operation carries the same key, so the region server can tell a
 * re-sent operation (same sequence as its record), a stale one (an older sequence) and a new one.
 */
public final class IdempotencyKey {

    /** Bytes of a stream id. */
    public static final int STREAM_ID_LENGTH = 16;
    /** Bytes of the encoded key: the stream id, then the sequence number (big-endian). */
    public static final int ENCODED_LENGTH = STREAM_ID_LENGTH + Bytes.SIZEOF_LONG;

    private final byte[] streamId;
    private final long sequence;

    public IdempotencyKey(byte[] streamId, long sequence) {
        if (streamId == null || streamId.length != STREAM_ID_LENGTH) {
            throw new IllegalArgumentException("a stream id has " + STREAM_ID_LENGTH + " bytes, was "
                    + (streamId == null ? "null" : streamId.length + " bytes"));
        }
        if (sequence <= 0) {
            throw new IllegalArgumentException("a sequence number is positive, was " + sequence);
        }
        this.streamId = streamId.clone();
        this.sequence = sequence;
    }

    public static IdempotencyKey decode(byte[] encoded) {
        if (encoded == null || encoded.length != ENCODED_LENGTH) {
            throw new IllegalArgumentException("an idempotency key has " + ENCODED_LENGTH + " bytes (stream id and"
                    + " sequence number), was " + (encoded == null ? "absent" : encoded.length + " bytes"));
        }
        return new IdempotencyKey(Arrays.copyOf(encoded, STREAM_ID_LENGTH),
                Bytes.toLong(encoded, STREAM_ID_LENGTH));
    }

    public byte[] encode() {
        return Bytes.add(streamId, Bytes.toBytes(sequence));
    }

    public byte[] streamId() {
        return streamId.clone();
    }

    public long sequence() {
        return sequence;
    }

    /** The qualifier of this stream's operation record in a row. */
    public byte[] recordQualifier() {
        return CellEncoding.operationRecordQualifier(streamId);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IdempotencyKey && sequence == ((IdempotencyKey) o).sequence
                && Arrays.equals(streamId, ((IdempotencyKey) o).streamId);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(streamId) * 31 + Long.hashCode(sequence);
    }

    @Override
    public String toString() {
        return "stream " + Bytes.toHex(streamId) + " operation " + sequence;
    }
}
