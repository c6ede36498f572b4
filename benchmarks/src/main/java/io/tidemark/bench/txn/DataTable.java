package io.tidemark.bench.txn;

import io.tidemark.committable.CommitTableSchema;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.table.TransactionalTableLayout;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.CoprocessorDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

import java.io.IOException;
import java.util.Locale;

/** The table benchmark transactions read and update: one row per key, one value per row. */
public final class DataTable {

    static final byte[] FAMILY = Bytes.toBytes("f");
    static final byte[] QUALIFIER = Bytes.toBytes("v");

    private DataTable() {
    }

    static byte[] row(int key) {
        return Bytes.toBytes(String.format(Locale.ROOT, "user%010d", key));
    }

    /** Drops {@code name} if an earlier run left it, then creates it with one family keeping every version. */
    static void recreate(Connection connection, TableName name) throws IOException {
        create(connection, name, plain(name));
    }

    /**
     * Like {@link #recreate}, with the fast-path coprocessor attached (first in the chain, docs/fast-path.md) and
     * told which commit table {@code clientConfig}'s transactions use.
     */
    static void recreateWithFastPath(Connection connection, TableName name, TidemarkConfig clientConfig)
            throws IOException {
        create(connection, name, plain(name).setCoprocessor(
                CoprocessorDescriptorBuilder.newBuilder(TransactionalTableLayout.FAST_PATH_OBSERVER)
                        .setPriority(TransactionalTableLayout.FAST_PATH_PRIORITY)
                        .setProperty(TidemarkConfig.COMMIT_TABLE, clientConfig.getString(TidemarkConfig.COMMIT_TABLE,
                                TidemarkConfig.COMMIT_TABLE_DEFAULT))
                        .setProperty(TidemarkConfig.COMMIT_TABLE_REGIONS, String.valueOf(clientConfig.getInt(
                                TidemarkConfig.COMMIT_TABLE_REGIONS, TidemarkConfig.COMMIT_TABLE_REGIONS_DEFAULT, 1,
                                CommitTableSchema.MAX_BUCKETS)))
                        .build()));
    }

    /** Transactional tables need every version; the raw table gets the same schema for a fair comparison. */
    private static TableDescriptorBuilder plain(TableName name) {
        return TableDescriptorBuilder.newBuilder(name)
                .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(FAMILY)
                        .setMaxVersions(Integer.MAX_VALUE)
                        .build());
    }

    private static void create(Connection connection, TableName name, TableDescriptorBuilder descriptor)
            throws IOException {
        try (Admin admin = connection.getAdmin()) {
            drop(admin, name);
            admin.createTable(descriptor.build());
        }
    }

    /** Drops the table if it exists: benchmark tables are scratch data. */
    static void drop(Connection connection, TableName name) throws IOException {
        try (Admin admin = connection.getAdmin()) {
            drop(admin, name);
        }
    }

    private static void drop(Admin admin, TableName name) throws IOException {
        if (admin.tableExists(name)) {
            if (admin.isTableEnabled(name)) {
                admin.disableTable(name);
            }
            admin.deleteTable(name);
        }
    }
}
