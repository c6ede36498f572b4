package io.tidemark.encoding;

import io.tidemark.protocol.CommitMode;
import org.apache.hadoop.hbase.util.Bytes;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The transaction a Get or Scan reads for, carried to the region server as the operation attribute
 * {@value #NAME}: the snapshot (start timestamp), the commit mode (whether a reader may invalidate a pending
 * writer) and the commit table that decides undecided writers. The reader names its commit table itself, so the
 * region server always consults the same one the client would.
 *
 * <p>Layout: format byte ({@value #FORMAT}), start timestamp (8 bytes), commit-mode code (1 byte), commit-table
 * salt buckets (1 byte), commit-table name (UTF-8, the rest).
 */
public final class SnapshotAttribute {

    public static final String NAME = "tidemark.snapshot";

    private static final byte FORMAT = 1;

    private final long startTimestamp;
    private final CommitMode commitMode;
    private final String commitTable;
    private final int commitTableBuckets;

    public SnapshotAttribute(long startTimestamp, CommitMode commitMode, String commitTable, int commitTableBuckets) {
        if (startTimestamp <= 0) {
            throw new IllegalArgumentException("start timestamp must be positive, was " + startTimestamp);
        }
        if (commitTableBuckets < 1 || commitTableBuckets > 255) {
            throw new IllegalArgumentException("commit table buckets must be from 1 to 255, was "
                    + commitTableBuckets);
        }
        this.startTimestamp = startTimestamp;
        this.commitMode = Objects.requireNonNull(commitMode, "commitMode");
        this.commitTable = Objects.requireNonNull(commitTable, "commitTable");
        this.commitTableBuckets = commitTableBuckets;
    }

    public long startTimestamp() {
        return startTimestamp;
    }

    public CommitMode commitMode() {
        return commitMode;
    }

    public String commitTable() {
        return commitTable;
    }

    public int commitTableBuckets() {
        return commitTableBuckets;
    }

    public byte[] encode() {
        byte[] name = commitTable.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(1 + Bytes.SIZEOF_LONG + 2 + name.length)
                .put(FORMAT).putLong(startTimestamp).put(commitMode.code()).put((byte) commitTableBuckets).put(name)
                .array();
    }

    /** Decodes an attribute value; a malformed one is refused with an exception saying what is wrong. */
    public static SnapshotAttribute decode(byte[] value) {
        if (value == null || value.length < 1 + Bytes.SIZEOF_LONG + 3) {
            throw new IllegalArgumentException(NAME + " attribute is too short ("
                    + (value == null ? 0 : value.length) + " bytes): not written by a Tidemark client");
        }
        if (value[0] != FORMAT) {
            throw new IllegalArgumentException(NAME + " attribute has format " + value[0] + ", this region server"
                    + " understands format " + FORMAT + ": upgrade the Tidemark coprocessor jar");
        }
        ByteBuffer in = ByteBuffer.wrap(value, 1, value.length - 1);
        long start = in.getLong();
        CommitMode mode = CommitMode.fromCode(in.get());
        int buckets = in.get() & 0xFF;
        String table = new String(value, in.position(), in.remaining(), StandardCharsets.UTF_8);
        return new SnapshotAttribute(start, mode, table, buckets);
    }

    @Override
    public String toString() {
        return "SnapshotAttribute{start=" + startTimestamp + ", mode=" + commitMode + ", commitTable=" + commitTable
                + "/" + commitTableBuckets + '}';
    }
}
