package io.tidemark.testing;

import io.tidemark.client.TTable;
import io.tidemark.client.Transaction;
import io.tidemark.client.TransactionManager;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;

/** What a transaction begun now reads: the committed state, as every later transaction sees it. */
public final class LatestSnapshot {

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
}
