package io.tidemark.bench.txn;

import io.tidemark.bench.ScratchTables;
import io.tidemark.table.TableFeature;
import io.tidemark.config.TidemarkConfig;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.Locale;
import java.util.Set;

/** The table benchmark transactions read and update: one row per key, one value per row. */
public final class DataTable {

    public static final byte[] FAMILY = Bytes.toBytes("f");
    public static final byte[] QUALIFIER = Bytes.toBytes("v");

    private DataTable() {
    }

    /** The row of {@code key}. */
    public static byte[] row(int key) {
        return Bytes.toBytes(String.format(Locale.ROOT, "user%010d", key));
    }

    /**
     * Drops {@code name} if an earlier run left it, then creates it with one family keeping every version, for the
     * transactions of {@code clientConfig}'s commit table.
     */
    static void recreate(Connection connection, TableName name, TidemarkConfig clientConfig) throws IOException {
        ScratchTables.recreate(connection, name, Bytes.toString(FAMILY), clientConfig);
    }

    /** {@link #recreate} for raw HBase operations. */
    static void recreateForRawHBase(Connection connection, TableName name) throws IOException {
        ScratchTables.recreateForRawHBase(connection, name, Bytes.toString(FAMILY));
    }

    /**
     * Like {@link #recreate}, with the fast-path coprocessor attached (first in the chain, docs/fast-path.md) and
     * told which commit table {@code clientConfig}'s transactions use.
     */
    static void recreateWithFastPath(Connection connection, TableName name, TidemarkConfig clientConfig)
            throws IOException {
        ScratchTables.recreate(connection, name, Bytes.toString(FAMILY), Set.of(TableFeature.FAST_PATH), clientConfig);
    }

    /** Drops the table if it exists: benchmark tables are scratch data. */
    static void drop(Connection connection, TableName name) throws IOException {
        ScratchTables.drop(connection, name);
    }
}
