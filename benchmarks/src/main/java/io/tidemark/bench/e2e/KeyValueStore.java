package io.tidemark.bench.e2e;

import io.tidemark.bench.ScratchTables;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.Closeable;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.Locale;

/** A table the end-to-end benchmark reads and writes, through transactions or plain HBase calls. */
interface KeyValueStore extends Closeable {

    byte[] FAMILY = Bytes.toBytes("f");
    byte[] QUALIFIER = Bytes.toBytes("v");

    static byte[] row(int key) {
        return Bytes.toBytes(String.format(Locale.ROOT, "user%010d", key));
    }

    /** The rows at which a table of {@code rows} keys splits into {@code regions} regions of equal key ranges. */
    static byte[][] splitKeys(int rows, int regions) {
        return ScratchTables.evenSplits(rows, regions, KeyValueStore::row);
    }

    /** Writes rows 0 to {@code rows - 1}, all with {@code value}. */
    void preload(int rows, byte[] value) throws IOException;

    /** Operations for one client thread. */
    Session session() throws IOException;

    /**
     * Transactions each client thread keeps in flight: 1, unless the store's sessions are {@link NonBlockingSession}s
     * that issue more without waiting.
     */
    default int inFlightPerThread() {
        return 1;
    }

    /** One operation of a transaction: a read of {@code key}, or, when {@code value} is not null, a write of it. */
    record Operation(int key, byte[] value) {

        boolean isRead() {
            return value == null;
        }

        /** The read: the benchmark's one column of the key's row. */
        Get get() {
            return new Get(row(key)).addColumn(FAMILY, QUALIFIER);
        }

        /** The write of {@code value} to the benchmark's one column of the key's row. */
        Put put() {
            return new Put(row(key)).addColumn(FAMILY, QUALIFIER, value);
        }
    }

    /** One client thread's view; each call of {@link #run} is one transaction. */
    interface Session extends Closeable {

        /** Runs before each transaction, outside its measured latency; nothing unless a store says otherwise. */
        default void beforeTransaction() throws IOException {
        }

        /** Runs the operations in order as one transaction; false when it aborted. */
        boolean run(List<Operation> operations) throws IOException;
    }

    /** A session that can issue a transaction without waiting for it: the future says whether it committed. */
    interface NonBlockingSession extends Session {

        CompletableFuture<Boolean> runAsync(List<Operation> operations);
    }
}
