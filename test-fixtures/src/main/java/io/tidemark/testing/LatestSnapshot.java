package io.tidemark.testing;

import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionManager;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/** What a transaction begun now reads: the committed state, as every later transaction sees it. */
public final class LatestSnapshot {

    /** Reads done by one transaction. */
    @FunctionalInterface
    public interface Reads<T> {
        T read(Transaction tx) throws IOException;
    }

    private LatestSnapshot() {
    }

    /** The column's value (as a UTF-8 string) in a new snapshot, or null when it is absent there. */
    public static String read(TransactionManager tm, TableName table, byte[] row, byte[] family, byte[] qualifier)
            throws IOException {
        Transaction reader = tm.begin();
        try (TTable t = new TTable(SharedMiniCluster.connection(), table)) {
            byte[] value = t.get(reader, new Get(row).addColumn(family, qualifier)).getValue(family, qualifier);
            return value == null ? null : Bytes.toString(value);
        } finally {
            tm.rollback(reader);
        }
    }

    /**
     * What {@code reads} returns in a transaction begun now, which commits after them (rolls back when they throw).
     */
    public static <T> T inNewTransaction(TransactionManager tm, Reads<T> reads) throws IOException {
        Transaction tx = tm.begin();
        T result;
        try {
            result = reads.read(tx);
        } catch (IOException | RuntimeException e) {
            tm.rollback(tx);
            throw e;
        }
        tm.commit(tx);
        return result;
    }

    /**
     * Row (as a UTF-8 string) to {@code value} of that row, for every row {@code tx} sees in a scan of the whole
     * table, in row order. A refused scan throws its IOException as it is.
     */
    public static Map<String, String> scan(Transaction tx, TTable table, Function<Result, String> value)
            throws IOException {
        Map<String, String> seen = new TreeMap<>();
        try (ResultScanner rows = table.getScanner(tx, new Scan())) {
            // next(), not the iterator, which would wrap a refusal in an UncheckedIOException.
            for (Result r = rows.next(); r != null; r = rows.next()) {
                seen.put(Bytes.toString(r.getRow()), value.apply(r));
            }
        }
        return seen;
    }
}
