package io.tidemark.tso.timestamp;

import org.apache.hadoop.hbase.util.Bytes;

/**
 * Layout of the timestamp table; this class is its only definition. The table holds one cell: row {@code "max"},
 * column {@code f:ts}, the 8-byte big-endian upper bound of every timestamp any TSO incarnation may have handed out.
 * The bound only grows, and only through a check-and-mutate on its previous value.
 */
public final class TimestampTableSchema {

    public static final byte[] ROW = Bytes.toBytes("max");
    public static final byte[] FAMILY = Bytes.toBytes("f");
    public static final byte[] QUALIFIER = Bytes.toBytes("ts");

    private TimestampTableSchema() {
    }

    public static byte[] encode(long bound) {
        return Bytes.toBytes(bound);
    }

    public static long decode(byte[] value) {
        if (value.length != Bytes.SIZEOF_LONG) {
            throw new IllegalStateException("timestamp bound has " + value.length
                    + " bytes instead of 8: the table is not a Tidemark timestamp table");
        }
        return Bytes.toLong(value);
    }
}
