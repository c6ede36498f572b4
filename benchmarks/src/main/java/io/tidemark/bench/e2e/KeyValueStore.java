package io.tidemark.bench.e2e;

import org.apache.hadoop.hbase.util.Bytes;

import java.io.Closeable;
import java.io.IOException;
import java.util.Locale;

/** A table the end-to-end benchmark reads and writes, through Tidemark transactions or plain HBase calls. */
interface KeyValueStore extends Closeable {

    byte[] FAMILY = Bytes.toBytes("f");
    byte[] QUALIFIER = Bytes.toBytes("v");

    static byte[] row(int key) {
        return Bytes.toBytes(String.format(Locale.ROOT, "user%010d", key));
    }

    /** Writes rows 0 to {@code rows - 1}, all with {@code value}. */
    void preload(int rows, byte[] value) throws IOException;

    /** Operations for one client thread. */
    Session session() throws IOException;

    /** One client thread's view; each call is one transaction of size one. */
    interface Session extends Closeable {

        /** Runs before each transaction, outside its measured latency; nothing unless a store says otherwise. */
        default void beforeTransaction() throws IOException {
        }

        /** Reads the key; false when the transaction aborted. */
        boolean read(int key) throws IOException;

        /** Writes the key; false when the transaction aborted. */
        boolean write(int key, byte[] value) throws IOException;
    }
}
