package io.tidemark.committable;

import io.tidemark.certificate.Seal;
import io.tidemark.timestamp.Timestamps;
import org.apache.hadoop.hbase.util.Bytes;
import org.jspecify.annotations.Nullable;

/**
 * Layout of the commit table (docs/architecture.md, "Commit table"). This class is the only definition of it.
 *
 * <ul>
 *   <li>Row key: one salt byte, {@code (startTimestamp >>> LOW_BITS) mod buckets}, then the 8-byte big-endian start
 *       timestamp. Consecutive transactions land in different pre-split regions.</li>
 *   <li>Column {@code f:c}: either the 8-byte big-endian commit timestamp followed by the TSO's commit certificate
 *       ({@link Seal}, {@value Seal#BYTES} bytes; {@value #SEALED_COMMIT_BYTES} in all), or the single byte
 *       {@code 'I'} when a reader invalidated the transaction. Both are written with "put if {@code f:c} is absent",
 *       so exactly one of committed and invalidated can win. A bare 8-byte commit timestamp, written before
 *       certificates, still reads as committed.</li>
 *   <li>Row {@code 0xFF "low-watermark"}, column {@code f:w}: the TSO's low watermark (8 bytes).</li>
 *   <li>Table attribute {@link #BUCKETS_ATTRIBUTE}: the number of salt buckets the table was created with, in
 *       decimal, set in the same step as the table is created.</li>
 *   <li>Row {@code 0xFF "layout"}, column {@code f:b}: the same number, copied from the attribute by
 *       {@link CommitTableAdmin#createIfMissing} (so by every TSO when it is built). A process configured with another
 *       number would look for records where none are written, so every writer of decisions checks this row first: a
 *       row is read from a region server, while the attribute can only be read from the master, and the decisions
 *       must not wait for a master that is away.</li>
 * </ul>
 * When the table carries the commit-record guard coprocessor ({@link #GUARD_COPROCESSOR}), commit records are
 * written as plain batched puts marked with {@link #PUT_IF_ABSENT_ATTRIBUTE}; the guard performs the "if absent"
 * check under the batch's row locks, so a whole batch costs one WAL sync instead of one per record. Writers learn
 * whether the guard is there from the same read as the layout: a Get of the layout row marked with
 * {@link #GUARD_PROBE_ATTRIBUTE} is answered by the guard with one more cell, {@code f:g}, and by a table without it
 * (or with a guard too old to know the probe, whose writers then use check-and-mutates, right on either) without.
 */
public final class CommitTableSchema {

    public static final byte[] FAMILY = Bytes.toBytes("f");
    public static final byte[] COMMIT_QUALIFIER = Bytes.toBytes("c");
    public static final byte[] INVALIDATED_VALUE = {'I'};
    public static final byte[] LOW_WATERMARK_ROW = Bytes.add(new byte[] {(byte) 0xFF}, Bytes.toBytes("low-watermark"));
    public static final byte[] LOW_WATERMARK_QUALIFIER = Bytes.toBytes("w");

    /** Bytes of a commit record's value: the commit timestamp and the TSO's certificate. */
    public static final int SEALED_COMMIT_BYTES = Bytes.SIZEOF_LONG + Seal.BYTES;

    /**
     * Attribute of a Delete of a record's row: the {@link Seal} that entitles it, the TSO's release token for a commit
     * record, an unmark token for an invalidation marker (docs/security.md).
     */
    public static final String RELEASE_ATTRIBUTE = "tidemark.release";

    /** Attribute of the put raising the low watermark: the TSO's certificate of the value. */
    public static final String LOW_WATERMARK_SEAL_ATTRIBUTE = "tidemark.low-watermark-seal";

    /**
     * Table attribute naming the timestamp table whose decision keys seal this commit table's decisions, set when the
     * table is created (and by a TSO of this version on a table created before); the guard checks seals only where it
     * is set.
     */
    public static final String TIMESTAMP_TABLE_ATTRIBUTE = "tidemark.timestamp-table.name";

    /** Class name of the region observer that makes marked puts conditional (module tidemark-coprocessor). */
    public static final String GUARD_COPROCESSOR = "io.tidemark.coprocessor.committable.CommitRecordGuard";

    /** Attribute marking a put that must only be applied when the row has no {@code f:c} yet. */
    public static final String PUT_IF_ABSENT_ATTRIBUTE = "tidemark.put-if-absent";

    /**
     * Text the guard's refusal of a decision nobody sealed starts with: a commit record without a valid certificate,
     * a removal without a valid token, a low watermark without a valid certificate or below the stored one.
     */
    public static final String NOT_SEALED = "tidemark: not sealed by the TSO";

    /** Text of the failure the guard returns for a marked put whose row already holds a decision. */
    public static final String ALREADY_DECIDED = "tidemark: commit record already decided";

    /** Table attribute holding the salt buckets the commit table was created with. */
    public static final String BUCKETS_ATTRIBUTE = "tidemark.commit-table.buckets";

    /** Row holding the salt buckets the commit table was created with, for readers that must not need the master. */
    public static final byte[] LAYOUT_ROW = Bytes.add(new byte[] {(byte) 0xFF}, Bytes.toBytes("layout"));
    /** Column of {@link #LAYOUT_ROW} holding the buckets, in decimal as in {@link #BUCKETS_ATTRIBUTE}. */
    public static final byte[] BUCKETS_QUALIFIER = Bytes.toBytes("b");

    /**
     * Attribute of a Get of {@link #LAYOUT_ROW} asking the guard, where attached, to add {@link #GUARDED_QUALIFIER}.
     */
    public static final String GUARD_PROBE_ATTRIBUTE = "tidemark.guard-probe";
    /** Column the guard adds to a probing Get of {@link #LAYOUT_ROW}; it is never stored. */
    public static final byte[] GUARDED_QUALIFIER = Bytes.toBytes("g");

    /** Salt buckets can never reach 0xFF, so the low-watermark and layout rows never collide with a commit record. */
    public static final int MAX_BUCKETS = 255;

    private final int buckets;

    public CommitTableSchema(int buckets) {
        if (buckets < 1 || buckets > MAX_BUCKETS) {
            throw new IllegalArgumentException("commit table buckets must be from 1 to " + MAX_BUCKETS + ", was "
                    + buckets);
        }
        this.buckets = buckets;
    }

    public int buckets() {
        return buckets;
    }

    /** The salt bucket, and so the pre-split region, of {@code startTimestamp}'s record: 0 to buckets - 1. */
    public int bucket(long startTimestamp) {
        return (int) Long.remainderUnsigned(startTimestamp >>> Timestamps.LOW_BITS, buckets);
    }

    /**
     * Whether {@code rowKey} holds a transaction's record, rather than being one of the table's own rows (low
     * watermark, layout), which start with {@code 0xFF}: no salt bucket reaches it.
     */
    public static boolean isRecordRow(byte[] rowKey) {
        return rowKey.length > 0 && rowKey[0] != (byte) 0xFF;
    }

    public byte[] rowKey(long startTimestamp) {
        byte[] key = new byte[1 + Bytes.SIZEOF_LONG];
        key[0] = (byte) bucket(startTimestamp);
        Bytes.putLong(key, 1, startTimestamp);
        return key;
    }

    public static long startTimestampOf(byte[] rowKey) {
        return Bytes.toLong(rowKey, 1);
    }

    /** Region split points: one region per salt bucket. */
    public byte[][] splitKeys() {
        byte[][] splits = new byte[buckets - 1][];
        for (int i = 1; i < buckets; i++) {
            splits[i - 1] = new byte[] {(byte) i};
        }
        return splits;
    }

    /**
     * The value of {@code f:c} that records {@code record}: its commit timestamp, and its certificate if it has one.
     */
    public static byte[] encodeCommit(CommitRecord record) {
        byte[] commit = Bytes.toBytes(record.commitTimestamp());
        return record.certificate() == null ? commit : Bytes.add(commit, record.certificate().encode());
    }

    /** Decodes the value of {@code f:c}. */
    public static CommitState decode(byte[] value) {
        if (value == null) {
            return CommitState.absent();
        }
        if (Bytes.equals(value, INVALIDATED_VALUE)) {
            return CommitState.invalidated();
        }
        if (value.length != Bytes.SIZEOF_LONG && value.length != SEALED_COMMIT_BYTES) {
            throw new IllegalStateException("commit record value has " + value.length + " bytes: not a commit table");
        }
        return CommitState.committed(Bytes.toLong(value, 0));
    }

    /** Whether {@code refused} is the guard's refusal of a write nobody sealed ({@link #NOT_SEALED}). */
    public static boolean isUnentitledRemoval(Exception refused) {
        return String.valueOf(refused.getMessage()).contains(NOT_SEALED);
    }

    /** The certificate a commit record's value carries, or null when it carries none (or is no commit). */
    public static @Nullable Seal certificateOf(byte @Nullable [] value) {
        return value != null && value.length == SEALED_COMMIT_BYTES ? Seal.decode(value, Bytes.SIZEOF_LONG) : null;
    }
}
