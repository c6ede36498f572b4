package io.tidemark.chaos.workload;

import io.tidemark.chaos.history.Key;
import io.tidemark.chaos.history.KeySpace;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.util.Bytes;

import java.nio.charset.StandardCharsets;

/** How the key space maps onto the checked HBase table: one family, values as UTF-8, the counter as 8 bytes. */
public final class ChaosTable {

    /** The only column family of the checked table. */
    public static final byte[] FAMILY = Bytes.toBytes("f");

    private ChaosTable() {
    }

    public static byte[] row(String row) {
        return Bytes.toBytes(row);
    }

    public static byte[] qualifier(String column) {
        return Bytes.toBytes(column);
    }

    /** The bytes stored for a history value: UTF-8, or 8 bytes for a counter value. */
    public static byte[] encode(KeySpace keys, Key key, String value) {
        if (keys.isCounter(key)) {
            return Bytes.toBytes(KeySpace.counterOf(value));
        }
        return value.getBytes(StandardCharsets.UTF_8);
    }

    /** The history value of stored bytes; a counter that is not 8 bytes long is shown as its raw bytes. */
    public static String decode(KeySpace keys, Key key, byte[] value) {
        if (keys.isCounter(key) && value.length == Bytes.SIZEOF_LONG) {
            return KeySpace.counterValue(Bytes.toLong(value));
        }
        return keys.isCounter(key) ? Bytes.toStringBinary(value) : new String(value, StandardCharsets.UTF_8);
    }

    /** The value {@code result} holds for {@code key}; null when absent. */
    public static String valueOf(KeySpace keys, Result result, Key key) {
        byte[] value = result.getValue(FAMILY, qualifier(key.column()));
        return value == null ? null : decode(keys, key, value);
    }
}
