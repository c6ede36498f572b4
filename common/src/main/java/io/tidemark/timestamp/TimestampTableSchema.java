package io.tidemark.timestamp;

import org.apache.hadoop.hbase.util.Bytes;

/**
 * Layout of the timestamp table ({@code tidemark.timestamp-table.name}); this class is its only definition
 * (docs/architecture.md, "Timestamps"). Only TSOs write it; region servers read it to learn the cluster's commit mode
 * and the current TSO incarnation's epoch, which a request's claims are checked against, and the decision keys that
 * certify commit decisions (docs/security.md). Applications need no access to it.
 * <ul>
 *   <li>Row {@code "max"}, column {@code f:ts}: the 8-byte big-endian upper bound of every timestamp any TSO
 *       incarnation may have handed out. The bound only grows, and only through a check-and-mutate on its previous
 *       value.</li>
 *   <li>Row {@code "max"}, column {@code f:epoch}: the epoch of the newest incarnation, 8 bytes big-endian, written
 *       in the same check-and-mutate as the incarnation's first claim of the bound, so before it hands out any
 *       timestamp. Absent when every TSO so far was of a version before it.</li>
 *   <li>Row {@code "keys"}: each TSO incarnation's decision key ({@code io.tidemark.certificate.DecisionKey}), one
 *       column per incarnation, the qualifier its 8-byte big-endian epoch and the value its 32-byte secret, written
 *       before the incarnation answers its first COMMIT. The newest {@value #KEPT_KEYS} are kept.</li>
 *   <li>Row {@code "settings"}: the cluster settings, columns {@code f:commit-mode} and {@code f:conflict-level},
 *       each the UTF-8 configuration name of the value ({@code low-latency}, {@code cell}, ...).</li>
 * </ul>
 */
public final class TimestampTableSchema {

    public static final byte[] ROW = Bytes.toBytes("max");
    public static final byte[] FAMILY = Bytes.toBytes("f");
    public static final byte[] QUALIFIER = Bytes.toBytes("ts");
    public static final byte[] EPOCH = Bytes.toBytes("epoch");
    public static final byte[] KEYS_ROW = Bytes.toBytes("keys");
    /** How many incarnations' decision keys the timestamp table keeps. */
    public static final int KEPT_KEYS = 16;
    public static final byte[] SETTINGS_ROW = Bytes.toBytes("settings");
    public static final byte[] COMMIT_MODE = Bytes.toBytes("commit-mode");
    public static final byte[] CONFLICT_LEVEL = Bytes.toBytes("conflict-level");

    private TimestampTableSchema() {
    }

    public static byte[] encode(long bound) {
        return Bytes.toBytes(bound);
    }

    /** Decodes the bound or the epoch. */
    public static long decode(byte[] value) {
        if (value.length != Bytes.SIZEOF_LONG) {
            throw new IllegalStateException("timestamp bound has " + value.length
                    + " bytes instead of 8: the table is not a Tidemark timestamp table");
        }
        return Bytes.toLong(value);
    }
}
