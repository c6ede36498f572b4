package io.tidemark.fastpath;

import io.tidemark.fastpath.FastPathProtocol.Operation;
import org.apache.hadoop.hbase.util.Bytes;

import java.nio.ByteBuffer;

/**
 * What a region server remembers of the last fast-path write of one client stream on one row (docs/fast-path.md,
 * "Retries"), stored as the value of the stream's operation record cell
 * ({@link io.tidemark.encoding.CellEncoding#operationRecordQualifier}): which operation it was, its sequence number,
 * when it was written (the region server's wall clock, for expiry), and its result, which a re-sent operation
 * returns instead of running again.
 *
 * <p>Value layout, 35 bytes: format {@value #FORMAT} (1 byte), operation code (1), sequence number (8), write time in
 * ms since the epoch (8), the row version the operation answered (8), applied (1 byte, 1 or 0), the counter's new
 * value for an increment, else 0 (8). Numbers are big-endian.
 */
public final class OperationRecord {

    /** The value format written here; a region server refuses to act on a record of a format it does not know. */
    public static final byte FORMAT = 1;
    private static final int LENGTH = 1 + 1 + 8 + 8 + 8 + 1 + 8;

    private final Operation operation;
    private final long sequence;
    private final long writtenAtMillis;
    private final long version;
    private final boolean applied;
    private final long counterValue;

    public OperationRecord(Operation operation, long sequence, long writtenAtMillis, long version, boolean applied,
            long counterValue) {
        if (!operation.writes()) {
            throw new IllegalArgumentException("only writes are recorded, not " + operation);
        }
        this.operation = operation;
        this.sequence = sequence;
        this.writtenAtMillis = writtenAtMillis;
        this.version = version;
        this.applied = applied;
        this.counterValue = counterValue;
    }

    public byte[] encode() {
        return ByteBuffer.allocate(LENGTH)
                .put(FORMAT)
                .put(operation.code())
                .putLong(sequence)
                .putLong(writtenAtMillis)
                .putLong(version)
                .put(applied ? (byte) 1 : (byte) 0)
                .putLong(counterValue)
                .array();
    }

    /** @throws IllegalStateException the value is not a record this code can read */
    public static OperationRecord decode(byte[] array, int offset, int length) {
        if (length < 1 || array[offset] != FORMAT) {
            throw new IllegalStateException("fast-path operation record of format "
                    + (length < 1 ? "(empty)" : String.valueOf(array[offset])) + "; this region server reads format "
                    + FORMAT + " (is a newer Tidemark coprocessor running on another region server?)");
        }
        if (length != LENGTH) {
            throw new IllegalStateException("fast-path operation record of " + length + " bytes, expected " + LENGTH
                    + ": " + Bytes.toStringBinary(array, offset, length));
        }
        ByteBuffer value = ByteBuffer.wrap(array, offset + 1, length - 1);
        Operation operation = Operation.fromCode(value.get());
        long sequence = value.getLong();
        long writtenAt = value.getLong();
        long version = value.getLong();
        boolean applied = value.get() == 1;
        return new OperationRecord(operation, sequence, writtenAt, version, applied, value.getLong());
    }

    public Operation operation() {
        return operation;
    }

    public long sequence() {
        return sequence;
    }

    public long writtenAtMillis() {
        return writtenAtMillis;
    }

    /** The row version the operation answered: its commit version, or the row's version when nothing was applied. */
    public long version() {
        return version;
    }

    /** Whether the write was applied (false only for a check-and-mutate whose check failed). */
    public boolean applied() {
        return applied;
    }

    /** An increment's new counter value; 0 for other operations. */
    public long counterValue() {
        return counterValue;
    }

    @Override
    public String toString() {
        return operation + " #" + sequence + " at version " + version + (applied ? "" : " (not applied)")
                + (operation == Operation.INCREMENT ? " -> " + counterValue : "");
    }
}
