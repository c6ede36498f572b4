package io.tidemark.encoding;

import org.apache.hadoop.hbase.util.Bytes;

import java.util.Arrays;
import java.util.List;

/**
 * How Tidemark stores transactional data in user tables (docs/architecture.md, "Cell encoding").
 *
 * <ul>
 *   <li>A data cell is the user's column; its version is the writing transaction's start timestamp and its value is
 *       the user's value, unchanged (an empty value is an ordinary value).</li>
 *   <li>A tombstone marks a transactional delete of a column: qualifier {@code q + TOMBSTONE_SUFFIX}, same version,
 *       value {@link #TOMBSTONE_DELETE}. A later put of the same column in the same transaction rewrites it as
 *       {@link #TOMBSTONE_CANCELLED}, because HBase deletes at an exact version would mask later writes.</li>
 *   <li>A shadow cell records that the write at that version committed: qualifier {@code q + SHADOW_SUFFIX}, same
 *       version, value the 8-byte big-endian commit timestamp. It covers the data cell and the tombstone.</li>
 *   <li>A fast-path operation record remembers the last operation of one client stream on the row, so that a re-sent
 *       operation returns its first result instead of running twice: qualifier {@code streamId +
 *       OPERATION_RECORD_SUFFIX} in the table's first family, HBase timestamp {@link #OPERATION_RECORD_TIMESTAMP},
 *       value {@code io.tidemark.fastpath.OperationRecord} (docs/fast-path.md, "Retries").</li>
 * </ul>
 * Every qualifier ending in {@link #METADATA_MARKER} followed by one byte (the kind) is reserved for Tidemark
 * metadata: user qualifiers ending so are refused, so metadata can never be mistaken for data, and kinds added later
 * are recognized as metadata (and passed over by the read rule) even by code that does not know them.
 */
public final class CellEncoding {

    /** The start of every metadata suffix: a zero byte then "tm.", followed by one byte naming the kind. */
    private static final byte[] METADATA_MARKER = {0x00, 't', 'm', '.'};

    /** Suffix of a shadow cell's qualifier: a zero byte then "tm.s". */
    private static final byte[] SHADOW_SUFFIX = {0x00, 't', 'm', '.', 's'};

    /** Suffix of a tombstone's qualifier: a zero byte then "tm.d". */
    private static final byte[] TOMBSTONE_SUFFIX = {0x00, 't', 'm', '.', 'd'};

    /** Suffix of a fast-path operation record's qualifier (after the stream id): a zero byte then "tm.o". */
    private static final byte[] OPERATION_RECORD_SUFFIX = {0x00, 't', 'm', '.', 'o'};

    /**
     * The HBase timestamp of every operation record. One fixed timestamp, so that a stream's newer record replaces
     * its older one (one version per stream and row). Above every transaction's version: snapshot reads (versions up
     * to a start timestamp) never fetch a record, and a record is the newest version of its qualifier, so the fast
     * path's read of a row's newest versions holds all its records. ({@code Long.MAX_VALUE} itself means "now" to
     * HBase.)
     */
    public static final long OPERATION_RECORD_TIMESTAMP = Long.MAX_VALUE - 1;

    /** Value of a tombstone that deletes the column. */
    public static final byte[] TOMBSTONE_DELETE = {1};

    /** Value of a tombstone overwritten by a later put of the same transaction. */
    public static final byte[] TOMBSTONE_CANCELLED = {0};

    private CellEncoding() {
    }

    public static byte[] shadowQualifier(byte[] qualifier) {
        return withSuffix(qualifier, SHADOW_SUFFIX);
    }

    public static byte[] tombstoneQualifier(byte[] qualifier) {
        return withSuffix(qualifier, TOMBSTONE_SUFFIX);
    }

    /**
     * Every qualifier a transactional write of the user column {@code qualifier} stores a cell under: its data, its
     * tombstone and its shadow cell. A read that resolves the column reads all three.
     */
    public static List<byte[]> storedQualifiers(byte[] qualifier) {
        return List.of(qualifier, tombstoneQualifier(qualifier), shadowQualifier(qualifier));
    }

    /** The qualifier of the operation record of stream {@code streamId}. */
    public static byte[] operationRecordQualifier(byte[] streamId) {
        return withSuffix(streamId, OPERATION_RECORD_SUFFIX);
    }

    public static boolean isOperationRecordQualifier(byte[] array, int offset, int length) {
        return endsWith(array, offset, length, OPERATION_RECORD_SUFFIX);
    }

    public static boolean isShadowQualifier(byte[] array, int offset, int length) {
        return endsWith(array, offset, length, SHADOW_SUFFIX);
    }

    public static boolean isTombstoneQualifier(byte[] array, int offset, int length) {
        return endsWith(array, offset, length, TOMBSTONE_SUFFIX);
    }

    /**
     * Whether the qualifier is Tidemark metadata rather than user data: a shadow cell, a tombstone, an operation
     * record, or a kind of metadata this version does not know (any qualifier ending in the marker and one byte).
     */
    public static boolean isMetadataQualifier(byte[] array, int offset, int length) {
        return length >= SHADOW_SUFFIX.length
                && endsWith(array, offset, length - 1, METADATA_MARKER);
    }

    public static boolean isMetadataQualifier(byte[] qualifier) {
        return isMetadataQualifier(qualifier, 0, qualifier.length);
    }

    /**
     * What precedes the suffix of a metadata qualifier: the user qualifier of a shadow cell or a tombstone, the
     * stream id of an operation record.
     */
    public static byte[] userQualifier(byte[] array, int offset, int length) {
        if (!isMetadataQualifier(array, offset, length)) {
            throw new IllegalArgumentException("not a Tidemark metadata qualifier: " + Bytes.toStringBinary(
                    array, offset, length));
        }
        return Arrays.copyOfRange(array, offset, offset + length - SHADOW_SUFFIX.length);
    }

    /** Refuses a user qualifier that could be mistaken for metadata. */
    public static void checkUserQualifier(byte[] qualifier) {
        if (qualifier != null && isMetadataQualifier(qualifier)) {
            throw new IllegalArgumentException("qualifier " + Bytes.toStringBinary(qualifier)
                    + " ends with a suffix Tidemark reserves for its metadata (\\x00tm. and one byte)");
        }
    }

    public static byte[] encodeCommitTimestamp(long commitTimestamp) {
        return Bytes.toBytes(commitTimestamp);
    }

    public static long decodeCommitTimestamp(byte[] array, int offset, int length) {
        if (length != Bytes.SIZEOF_LONG) {
            throw new IllegalStateException("shadow cell value has " + length + " bytes, expected 8");
        }
        return Bytes.toLong(array, offset, length);
    }

    /** Whether a tombstone's value means "deleted" (as opposed to cancelled by a later put). */
    public static boolean isDeletingTombstone(byte[] array, int offset, int length) {
        return length == 1 && array[offset] == TOMBSTONE_DELETE[0];
    }

    private static byte[] withSuffix(byte[] qualifier, byte[] suffix) {
        byte[] q = qualifier == null ? new byte[0] : qualifier;
        byte[] result = Arrays.copyOf(q, q.length + suffix.length);
        System.arraycopy(suffix, 0, result, q.length, suffix.length);
        return result;
    }

    private static boolean endsWith(byte[] array, int offset, int length, byte[] suffix) {
        if (length < suffix.length) {
            return false;
        }
        int start = offset + length - suffix.length;
        for (int i = 0; i < suffix.length; i++) {
            if (array[start + i] != suffix[i]) {
                return false;
            }
        }
        return true;
    }
}
