package io.tidemark.committable;

import com.google.errorprone.annotations.concurrent.GuardedBy;
import io.tidemark.certificate.DecisionKey;
import io.tidemark.timestamp.TimestampTableSchema;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.Delete;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.jspecify.annotations.Nullable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The decision keys in the timestamp table's row {@code keys} ({@link TimestampTableSchema#KEYS_ROW}): read on first
 * use and cached, read again when an epoch is asked for that the cache does not hold, at most once a second, or once
 * in {@value #MIN_REREAD_FOR_NEWER_EPOCH_MILLIS} ms for an epoch above every key held: a forged epoch must not turn
 * every request into a read of the timestamp table, but a TSO that just took over (a newer epoch, whose key it
 * recorded before its first COMMIT answer) must not have its first decisions refused for a second because its
 * predecessor's were read shortly before. The TSO records its own key here ({@link #record}) before it answers a
 * COMMIT. Thread-safe.
 */
public final class TimestampTableKeys implements DecisionKeys {

    private static final long MIN_REREAD_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long MIN_REREAD_FOR_NEWER_EPOCH_MILLIS = 50;
    private static final long MIN_REREAD_FOR_NEWER_EPOCH_NANOS =
            TimeUnit.MILLISECONDS.toNanos(MIN_REREAD_FOR_NEWER_EPOCH_MILLIS);

    private final Connection connection;
    private final TableName timestampTable;
    private final LongSupplier nanoClock;
    @GuardedBy("this")
    private NavigableMap<Long, DecisionKey> known = new TreeMap<>();
    @GuardedBy("this")
    private long lastRead;
    @GuardedBy("this")
    private boolean read;

    public TimestampTableKeys(Connection connection, TableName timestampTable) {
        this(connection, timestampTable, System::nanoTime);
    }

    /** With {@code nanoClock} in place of {@link System#nanoTime()}, for tests of the re-read limits. */
    TimestampTableKeys(Connection connection, TableName timestampTable, LongSupplier nanoClock) {
        this.connection = connection;
        this.timestampTable = timestampTable;
        this.nanoClock = nanoClock;
    }

    public TableName timestampTable() {
        return timestampTable;
    }

    @Override
    public synchronized @Nullable DecisionKey ofEpoch(long epoch) throws IOException {
        DecisionKey key = known.get(epoch);
        if (key == null && mayReadAgain(epoch)) {
            readAll();
            key = known.get(epoch);
        }
        return key;
    }

    @Override
    public synchronized @Nullable DecisionKey newest() throws IOException {
        if (!read) {
            readAll();
        }
        return known.isEmpty() ? null : known.lastEntry().getValue();
    }

    /**
     * Records {@code key}, the TSO's own, and removes all but the newest {@link TimestampTableSchema#KEPT_KEYS}. Called
     * by a TSO that holds the lease, before it answers its first COMMIT.
     */
    public synchronized void record(DecisionKey key) throws IOException {
        try (Table table = connection.getTable(timestampTable)) {
            table.put(new Put(TimestampTableSchema.KEYS_ROW).addColumn(TimestampTableSchema.FAMILY,
                    Bytes.toBytes(key.epoch()), key.secret()));
            readAll();
            List<Long> oldestFirst = new ArrayList<>(known.keySet());
            int excess = oldestFirst.size() - TimestampTableSchema.KEPT_KEYS;
            if (excess > 0) {
                Delete old = new Delete(TimestampTableSchema.KEYS_ROW);
                for (long epoch : oldestFirst.subList(0, excess)) {
                    old.addColumns(TimestampTableSchema.FAMILY, Bytes.toBytes(epoch));
                }
                table.delete(old);
                readAll();
            }
        }
    }

    @GuardedBy("this")
    private boolean mayReadAgain(long epoch) {
        if (!read) {
            return true;
        }
        long sinceRead = nanoClock.getAsLong() - lastRead;
        boolean newer = known.isEmpty() || epoch > known.lastKey();
        return sinceRead >= (newer ? MIN_REREAD_FOR_NEWER_EPOCH_NANOS : MIN_REREAD_NANOS);
    }

    @GuardedBy("this")
    private void readAll() throws IOException {
        Result row;
        try (Table table = connection.getTable(timestampTable)) {
            row = table.get(new Get(TimestampTableSchema.KEYS_ROW).addFamily(TimestampTableSchema.FAMILY));
        }
        NavigableMap<Long, DecisionKey> keys = new TreeMap<>();
        NavigableMap<byte[], byte[]> columns = row.getFamilyMap(TimestampTableSchema.FAMILY);
        if (columns != null) {
            for (Map.Entry<byte[], byte[]> column : columns.entrySet()) {
                if (column.getKey().length == Bytes.SIZEOF_LONG
                        && column.getValue().length == DecisionKey.SECRET_BYTES) {
                    long epoch = Bytes.toLong(column.getKey());
                    keys.put(epoch, DecisionKey.of(epoch, column.getValue()));
                }
            }
        }
        known = keys;
        read = true;
        lastRead = nanoClock.getAsLong();
    }
}
