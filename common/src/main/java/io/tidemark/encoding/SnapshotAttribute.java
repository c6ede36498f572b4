package io.tidemark.encoding;

import io.tidemark.protocol.CommitMode;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.util.Bytes;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * The transaction a Get or Scan reads for, carried to the region server as the operation attribute
 * {@value #NAME}: the snapshot (start timestamp), the commit mode and the epoch of the TSO incarnation that handed it
 * out (together they say whether a reader may invalidate a pending writer), the newest of the reader's own versions
 * it sees (its checkpoint and visibility level), whether it reads every own version of a column (visibility level
 * SNAPSHOT_ALL), and the commit table that decides undecided writers. The reader names its commit table itself, so
 * the region server always consults the same one the client would.
 *
 * <p>Layout (docs/coprocessors.md, "Server-side snapshot reads"): format byte ({@value #FORMAT}), start timestamp
 * (8 bytes), epoch (8 bytes), own versions up to (8 bytes), own versions shown (1 byte: {@value #NEWEST_VERSION} or
 * {@value #EVERY_OWN_VERSION}), commit-mode code (1 byte), commit-table salt buckets (1 byte), commit-table name
 * (UTF-8, the rest). Older formats are still decoded: {@value #FORMAT_WITHOUT_EVERY_OWN_VERSION} (clients before
 * SNAPSHOT_ALL) lacks the own-versions-shown byte, such a reader sees the newest version; format
 * {@value #FORMAT_WITHOUT_CHECKPOINTS} (clients before checkpoints) also lacks the own-versions bound, such a reader
 * sees its own writes at its start.
 */
public final class SnapshotAttribute {

    public static final String NAME = "tidemark.snapshot";

    private static final byte FORMAT = 4;

    private static final byte FORMAT_WITHOUT_EVERY_OWN_VERSION = 3;

    private static final byte FORMAT_WITHOUT_CHECKPOINTS = 2;

    /** Own versions shown: per column, the newest visible version only (SNAPSHOT, SNAPSHOT_EXCLUDE_CURRENT). */
    private static final byte NEWEST_VERSION = 0;

    /** Own versions shown: every own visible version above the snapshot's, up to the max versions (SNAPSHOT_ALL). */
    private static final byte EVERY_OWN_VERSION = 1;

    private static final int FIXED_BYTES = 1 + 3 * Bytes.SIZEOF_LONG + 3;

    private static final int FIXED_BYTES_WITHOUT_EVERY_OWN_VERSION = 1 + 3 * Bytes.SIZEOF_LONG + 2;

    private static final int FIXED_BYTES_WITHOUT_CHECKPOINTS = 1 + 2 * Bytes.SIZEOF_LONG + 2;

    private final long startTimestamp;
    private final long epoch;
    private final long ownVersionsUpTo;
    private final boolean everyOwnVersion;
    private final CommitMode commitMode;
    private final String commitTable;
    private final int commitTableBuckets;

    /**
     * @param epoch the epoch of the TSO incarnation that handed out {@code startTimestamp}, or 0 when unknown
     * @param ownVersionsUpTo the newest of the reader's own versions it sees: from {@code startTimestamp - 1} (none)
     *     to {@code startTimestamp + LOW_MASK} (all)
     * @param everyOwnVersion whether the reader reads every own version of a column above the snapshot's (SNAPSHOT_ALL)
     *     rather than the newest visible version
     */
    public SnapshotAttribute(long startTimestamp, long epoch, long ownVersionsUpTo, boolean everyOwnVersion,
            CommitMode commitMode, String commitTable, int commitTableBuckets) {
        Timestamps.checkSnapshot(startTimestamp, epoch, ownVersionsUpTo);
        if (commitTableBuckets < 1 || commitTableBuckets > 255) {
            throw new IllegalArgumentException("commit table buckets must be from 1 to 255, was "
                    + commitTableBuckets);
        }
        this.startTimestamp = startTimestamp;
        this.epoch = epoch;
        this.ownVersionsUpTo = ownVersionsUpTo;
        this.everyOwnVersion = everyOwnVersion;
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

    /** The newest of the reader's own versions it sees; {@code startTimestamp() - 1} when it sees none. */
    public long ownVersionsUpTo() {
        return ownVersionsUpTo;
    }

    /** Whether the reader reads every own version of a column above the snapshot's version (SNAPSHOT_ALL). */
    public boolean everyOwnVersion() {
        return everyOwnVersion;
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
                .put(FORMAT).putLong(startTimestamp).putLong(epoch).putLong(ownVersionsUpTo)
                .put(everyOwnVersion ? EVERY_OWN_VERSION : NEWEST_VERSION).put(commitMode.code())
                .put((byte) commitTableBuckets).put(name)
                .array();
    }

    /**
     * Decodes an attribute value, of this format or of formats {@value #FORMAT_WITHOUT_EVERY_OWN_VERSION} and
     * {@value #FORMAT_WITHOUT_CHECKPOINTS}.
     *
     * @throws IllegalArgumentException saying what is wrong with a malformed value
     */
    public static SnapshotAttribute decode(byte[] value) {
        byte format = value == null || value.length == 0 ? 0 : value[0];
        if (value != null && value.length > 0 && format != FORMAT && format != FORMAT_WITHOUT_EVERY_OWN_VERSION
                && format != FORMAT_WITHOUT_CHECKPOINTS) {
            throw new IllegalArgumentException(NAME + " attribute has format " + format + ", this region server"
                    + " understands formats " + FORMAT_WITHOUT_CHECKPOINTS + " to " + FORMAT + ": "
                    + (format < FORMAT ? "upgrade the Tidemark client" : "upgrade the Tidemark coprocessor jar")
                    + " so that both speak the same format");
        }
        int fixed = format == FORMAT ? FIXED_BYTES
                : format == FORMAT_WITHOUT_EVERY_OWN_VERSION ? FIXED_BYTES_WITHOUT_EVERY_OWN_VERSION
                : FIXED_BYTES_WITHOUT_CHECKPOINTS;
        if (value == null || value.length < fixed + 1) {
            throw new IllegalArgumentException(NAME + " attribute is too short ("
                    + (value == null ? 0 : value.length) + " bytes): not written by a Tidemark client");
        }
        ByteBuffer in = ByteBuffer.wrap(value, 1, value.length - 1);
        long start = in.getLong();
        long epoch = in.getLong();
        // A reader of format 2 wrote only at its start and saw those writes.
        long ownVersionsUpTo = format == FORMAT_WITHOUT_CHECKPOINTS ? start : in.getLong();
        boolean everyOwnVersion = format == FORMAT && everyOwnVersion(in.get());
        CommitMode mode = commitMode(in.get());
        int buckets = in.get() & 0xFF;
        String table = new String(value, in.position(), in.remaining(), StandardCharsets.UTF_8);
        return new SnapshotAttribute(start, epoch, ownVersionsUpTo, everyOwnVersion, mode, table, buckets);
    }

    private static CommitMode commitMode(byte code) {
        try {
            return CommitMode.fromCode(code);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(NAME + " attribute has commit-mode code " + code + ": " + e.getMessage(),
                    e);
        }
    }

    private static boolean everyOwnVersion(byte code) {
        if (code != NEWEST_VERSION && code != EVERY_OWN_VERSION) {
            throw new IllegalArgumentException(NAME + " attribute has own-versions-shown code " + code + ", expected "
                    + NEWEST_VERSION + " or " + EVERY_OWN_VERSION);
        }
        return code == EVERY_OWN_VERSION;
    }

    @Override
    public String toString() {
        return "SnapshotAttribute{start=" + startTimestamp + ", epoch=" + epoch + ", ownUpTo=" + ownVersionsUpTo
                + (everyOwnVersion ? ", everyOwnVersion" : "") + ", mode=" + commitMode
                + ", commitTable=" + commitTable + "/" + commitTableBuckets + '}';
    }
}
