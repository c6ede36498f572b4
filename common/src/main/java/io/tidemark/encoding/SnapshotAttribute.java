package io.tidemark.encoding;

import io.tidemark.protocol.CommitMode;
import org.apache.hadoop.hbase.util.Bytes;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The transaction a Get or Scan reads for, carried to the region server as the operation attribute
 * {@value #NAME}: the snapshot (start timestamp), the commit mode and the epoch of the TSO incarnation that handed it
 * out (together they say whether a reader may invalidate a pending writer), and the commit table that decides
 * undecided writers. The reader names its commit table itself, so the region server always consults the same one
 * the client would.
 *
 * <p>Layout (docs/coprocessors.md, "Server-side snapshot reads"): format byte ({@value #FORMAT}), start timestamp
 * (8 bytes), epoch (8 bytes), commit-mode code (1 byte), commit-table salt buckets (1 byte), commit-table name
 * (UTF-8, the rest).
 */
public final class SnapshotAttribute {

    public static final String NAME = "tidemark.snapshot";

    private static final byte FORMAT = 2;

    private static final int FIXED_BYTES = 1 + Bytes.SIZEOF_LONG + Bytes.SIZEOF_LONG + 2;

    private final long startTimestamp;
    private final long epoch;
    private final CommitMode commitMode;
    private final String commitTable;
    private final int commitTableBuckets;

    /** @param epoch the epoch of the TSO incarnation that handed out {@code startTimestamp}, or 0 when unknown */
    public SnapshotAttribute(long startTimestamp, long epoch, CommitMode commitMode, String commitTable,
            int commitTableBuckets) {
        if (startTimestamp <= 0) {
            throw new IllegalArgumentException("start timestamp must be positive, was " + startTimestamp);
        }
        if (epoch < 0 || epoch >= startTimestamp) {
            throw new IllegalArgumentException("epoch must be from 0 to below the start timestamp " + startTimestamp
                    + ", was " + epoch);
        }
        if (commitTableBuckets < 1 || commitTableBuckets > 255) {
            throw new IllegalArgumentException("commit table buckets must be from 1 to 255, was "
                    + commitTableBuckets);
        }
        this.startTimestamp = startTimestamp;
        this.epoch = epoch;
        this.commitMode = Objects.requireNonNull(commitMode, "commitMode");
        this.commitTable = Objects.requireNonNull(commitTable, "commitTable");
        this.commitTableBuckets = commitTableBuckets;
    }

    public long startTimestamp() {
        return startTimestamp;
    }

    /** The epoch of the TSO incarnation that handed out the start timestamp, or 0 when unknown. */
    public long epoch() {
        return epoch;
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
        return ByteBuffer.allocate(FIXED_BYTES + name.length)
                .put(FORMAT).putLong(startTimestamp).putLong(epoch).put(commitMode.code())
                .put((byte) commitTableBuckets).put(name)
                .array();
    }

    /** Decodes an attribute value; a malformed one is refused with an exception saying what is wrong. */
    public static SnapshotAttribute decode(byte[] value) {
        if (value != null && value.length > 0 && value[0] != FORMAT) {
            throw new IllegalArgumentException(NAME + " attribute has format " + value[0] + ", this region server"
                    + " understands format " + FORMAT + ": " + (value[0] < FORMAT ? "upgrade the Tidemark client"
                    : "upgrade the Tidemark coprocessor jar") + " so that both speak the same format");
        }
        if (value == null || value.length < FIXED_BYTES + 1) {
            throw new IllegalArgumentException(NAME + " attribute is too short ("
                    + (value == null ? 0 : value.length) + " bytes): not written by a Tidemark client");
        }
        ByteBuffer in = ByteBuffer.wrap(value, 1, value.length - 1);
        long start = in.getLong();
        long epoch = in.getLong();
        CommitMode mode = CommitMode.fromCode(in.get());
        int buckets = in.get() & 0xFF;
        String table = new String(value, in.position(), in.remaining(), StandardCharsets.UTF_8);
        return new SnapshotAttribute(start, epoch, mode, table, buckets);
    }

    @Override
    public String toString() {
        return "SnapshotAttribute{start=" + startTimestamp + ", epoch=" + epoch + ", mode=" + commitMode
                + ", commitTable=" + commitTable + "/" + commitTableBuckets + '}';
    }
}
