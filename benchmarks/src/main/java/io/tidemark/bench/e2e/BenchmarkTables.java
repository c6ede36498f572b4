package io.tidemark.bench.e2e;

import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;

import java.io.IOException;

/** Creates the benchmark's tables afresh. */
final class BenchmarkTables {

    private BenchmarkTables() {
    }

    /** Drops {@code name} if an earlier run left it, then creates it with one family keeping every version. */
    static void recreate(Connection connection, TableName name) throws IOException {
        try (Admin admin = connection.getAdmin()) {
            if (admin.tableExists(name)) {
                if (admin.isTableEnabled(name)) {
                    admin.disableTable(name);
                }
                admin.deleteTable(name);
            }
            // Transactional tables need every version; the raw table gets the same schema for a fair comparison.
            admin.createTable(TableDescriptorBuilder.newBuilder(name)
                    .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(KeyValueStore.FAMILY)
                            .setMaxVersions(Integer.MAX_VALUE)
                            .build())
                    .build());
        }
    }
}
